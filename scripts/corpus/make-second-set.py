#!/usr/bin/env python3
"""Renders a second evaluation set for entities and the mind map, with people, companies,
domains, numbers and designed relations of its own, through the shared corpus generator.

    python3 scripts/corpus/make-second-set.py --generator ../shared/corpus --out /tmp/second-set [--seed 11]

The generator (`../shared/corpus/generate.py`, see its header for the Debian packages it needs)
is imported unchanged; this script replaces its entity data pools (names, companies, domains,
mail hosts, URL paths) with new ones that appear in neither of its pools, and its designed
relation groups with new ones. Sentence templates and documents come from the generator. The
result has the public set's layout: images, sidecars, relations.json, duplicates.json, so
`lens-bench relations OUT` and `lens-bench entities OUT` score it. Test tooling only.
"""
import argparse
import os
import sys

FIRST = ["Maarten", "Siobhán", "Joaquín", "Aleksandra", "Kofi", "Ingeborg", "Thiago", "Yasmin", "Rūta", "Émile",
         "Nkechi", "Sakura", "Bartholomew", "Zsófia", "Ravi", "Henrike", "Mehmet", "Lucía", "Arnav", "Olamide",
         "Finnegan", "Chiara", "Dong-hyun", "Paulina", "Kai", "Agnieszka", "Tobias", "Amaka", "Sven", "Noor",
         "Beatriz", "Oskar", "Adaeze", "Matthias", "Leilani", "Hamza", "Ines", "Teodor", "Mireille", "Juhani",
         "Farah", "Callum", "Valentina", "Björg", "Rohan", "Solveig", "Tadeusz", "Ayesha", "Lorenzo", "Wanjiru"]
LAST = ["van der Berg", "McAllister", "de la Cruz", "O'Sullivan", "Fitzgerald", "da Silva", "Kowalczyk", "Nakagawa",
        "Abernathy", "Oyelaran", "Quintero", "Henriksen", "Bianchi", "Al-Farsi", "Rosenthal", "Achterberg", "Szabó",
        "Mwangi", "Delacroix", "Petrović", "Lindgren", "Takahashi", "Chukwu", "MacLeod", "Esposito", "Jankowski",
        "Haugen", "Okonkwo", "Villanueva", "Brennan", "Marchetti", "Sørensen", "Ibáñez", "Kruger", "Nwachukwu",
        "Vasquez", "Eriksen", "Moreira", "Kaczmarek", "Gallagher", "Hoffmann", "Adebayo", "Castellano", "Virtanen",
        "Rahimi", "Dufresne", "Novak", "Pereira", "Whitfield", "Yilmaz"]
COMPANIES = ["Brightwater Ceramics", "Juniper Ledger", "Stonebridge Freight", "Peregrine Labs", "Cobalt Cycles",
             "Wildflower Bakehouse", "Halcyon Dental", "Meridian Maps", "Foxglove Books", "Summit Solar",
             "Riverstone Legal", "Kettle & Kiln"]
DOMAINS = ["quillfeather.io", "brightwater.example", "juniperledger.com", "stonebridge.co.uk", "peregrine-labs.de",
           "cobaltcycles.fr", "halcyondental.com", "meridianmaps.net", "foxglove.books", "summitsolar.in",
           "riverstone.legal", "kettleandkiln.com.au"]
MAILHOSTS = ["posteo.de", "hotmail.co.uk", "laposte.net", "zoho.com", "yandex.com", "aol.com", "tutanota.com", "mail.com"]
PATHS = ["/changelog", "/orders/ORD-88412", "/p/Zx81Qa", "/booking?slot=1430&day=tue", "/settings/security#2fa",
         "/news/2025/02/spring-update", "/cases/30417", "/checkout?cart=K7P-903", "/de/hilfe/konto", "/files/q4-report.xlsx",
         "/careers/data-analyst", "/release/v3.1.0/app.dmg", "/forgot", "/carte?lang=fr", "/status?id=559201",
         "/people/directory", "/kb/Backup_Policy", "/api/v1/items/9921", "/meetups/lisbon", "/go/x9y8"]

# Designed relations: the same person, address or number written three ways across screenshots,
# with forms the public set does not use (particles, Mc, apostrophes, national French and Indian numbers).
RELATIONS = [
    ("person", ["Maarten van der Berg", "Marten van der Berg", "Maarten van den Berg"], None),
    ("person", ["Siobhán McAllister", "Siobhan McAllister", "Siobhan MacAllister"], None),
    ("url", ["https://quillfeather.io/changelog", "quillfeather.io/changelog/", "www.quillfeather.io/changelog"], None),
    ("phone", ["+33 1 42 68 53 00", "01 42 68 53 00", "+33 (0)1 42 68 53 00"], "+33142685300"),
    ("email", ["rosa.delacroix@juniperledger.com", "Rosa.Delacroix@juniperledger.com", "rosa.delacroix@juniperledger.com"], None),
    ("phone", ["+1 (646) 555-0187", "646-555-0187", "646.555.0187"], "+16465550187"),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--generator", required=True, help="the folder holding generate.py")
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    sys.path.insert(0, os.path.abspath(args.generator))
    import generate as g  # noqa: E402
    import phonenumbers  # noqa: E402

    g.FIRST, g.LAST, g.COMPANIES, g.DOMAINS, g.MAILHOSTS, g.PATHS = FIRST, LAST, COMPANIES, DOMAINS, MAILHOSTS, PATHS
    # Every list is used whole: the new pools, and the generator's templates and documents (in
    # new combinations, from both of its halves).
    g.pool_split = lambda lst, pool: list(lst)

    def relation_groups(self):
        groups = []
        for typ, forms, norm in RELATIONS:
            ents = []
            for f in forms:
                if typ == "person":
                    ents.append(g.Ent("person", f, f))
                    self.used_names.add(tuple(f.split(" ", 1)))
                elif typ == "url":
                    ents.append(g.Ent("url", f, g.norm_url(f)))
                elif typ == "email":
                    ents.append(g.Ent("email", f, f.lower()))
                else:
                    region = None if f.startswith("+") else {"+1": "US", "+33": "FR"}[norm[:3] if norm.startswith("+33") else norm[:2]]
                    n = phonenumbers.parse(f, region)
                    assert phonenumbers.format_number(n, phonenumbers.PhoneNumberFormat.E164) == norm, f
                    ents.append(g.Ent("phone", f, norm, region=phonenumbers.region_code_for_number(n)))
                self.used_vals.add(f)
                self.used_vals.add(ents[-1].norm)
            groups.append((typ, ents))
        return groups

    g.Gen.relation_groups = relation_groups
    os.makedirs(args.out, exist_ok=True)
    g.Gen(os.path.abspath(args.out), args.seed, "own").run()


if __name__ == "__main__":
    main()
