import LensCore
import Testing

struct PersonExtractionTests {
    /// Names by their context, and names with a known given name alone on their line.
    @Test(arguments: [
        ("From: Olusegun Costa <priya.nair@fabrikam.io>", "Olusegun Costa"),
        ("To: Pierre Fernández <pfernandez@example.org>", "Pierre Fernández"),
        ("Author: Camille Gupta <camille@orchid.flowers>", "Camille Gupta"),
        (" -- Colin Watson <cjwatson@debian.org>  Sun, 12 Mar 2023 22:23:59 +0000", "Colin Watson"),
        ("  [ Juan Manuel Méndez Rey ]", "Juan Manuel Méndez Rey"),
        ("Mateo Lefèvre 09:36", "Mateo Lefèvre"),
        ("Guests\nMarisol Abiodun - mabiodun@pixelforge.studio", "Marisol Abiodun"),
        ("Can you call José Weber at +1-617-555-0166 before", "José Weber"),
        ("Organizer: Pierre Costa <Priya.Nair@fabrikam.io>", "Pierre Costa"),
        ("amount=EUR 480.18 customer=José Dubois", "José Dubois"),
        ("Direct messages\nIsabella Dubois\n# sales", "Isabella Dubois"),
        ("Dear Anna-Lena Okafor,", "Anna-Lena Okafor"),
        ("K. Nowakowska 10:41\nMoved the doc", "K. Nowakowska"),
        ("Katarzyna Nowakowski\nSales Director\nemail\nkatarzyna.nowakowski@orchid.flowers", "Katarzyna Nowakowski"),
        ("Olusegun Costa", "Olusegun Costa"), // alone on its line, with a census surname
        // Apostrophes, Mc and particles (the failing forms).
        ("From: Catherine O'Neill <c.oneill@example.org>", "Catherine O'Neill"),
        ("To: Siobhan McAllister <siobhan@example.org>", "Siobhan McAllister"),
        ("Author: Maarten van der Berg <mvdb@example.org>", "Maarten van der Berg"),
        ("Organizer: Lucía de la Cruz", "Lucía de la Cruz"),
    ])
    func namesAreFoundByContext(text: String, name: String) throws {
        let found = PersonExtraction.entities(in: text)
        #expect(found.map(\.value) == [name], "\(found)")
        let person = try #require(found.first)
        #expect(String(decoding: Array(text.utf8)[person.start..<person.end], as: UTF8.self) == name)
    }

    /// A town that is also a given name, after a postal code on an address line, is no person;
    /// the same given name where names stand still is.
    @Test(arguments: [
        ("address\n16 Congress Ave, TX 78701 Austin", [String]()),
        ("Mail to\n1200 Elm Street\n53703 Madison", []),
        ("Via Roma 12\n50123 Florence", []),
        ("Shipping: 4 Kings Road, 2031 Chelsea", []),
        ("Can you call Austin at 16:30", ["Austin"]),
        ("Thanks, Austin\nsee you in room 4017", ["Austin"]),
        ("Contact: Madison Reyes\n78701", ["Madison Reyes"]),
    ])
    func townsOfAddressesAreNotPeople(text: String, names: [String]) {
        #expect(PersonExtraction.entities(in: text).map(\.value) == names, "\(PersonExtraction.entities(in: text))")
    }

    @Test(arguments: [
        "Invoice INV-55719 from Copperpot Diner", "Welcome Aboard", "Password Reset Request", "Direct Messages",
        "The Quarterly Report", "Sales Director, Marigold Bakery", "Monday March", "New York City",
        "Olusegun Okonkwo", // neither a census given name nor a census surname, and no cue
        "K. Nowakowska", "Moved by K. Nowakowska today", // an initial needs a cue
        "Olusegun Okonkwo\nolusegun@example.org", // the address holds only one of the words
        "Marigold Bakery\nSee you, Olusegun Okonkwo\nolusegun.okonkwo@example.org", // not alone on its line
    ])
    func capitalizedWordsWithoutACueAreNotNames(text: String) {
        #expect(PersonExtraction.entities(in: text).isEmpty, "\(PersonExtraction.entities(in: text))")
    }
}
