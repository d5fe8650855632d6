import LensCore
import LensPhone
import LensStore

/// A national number stored before the library held it in international form: the screenshot
/// with `020 7946 0018` came first, the card with `+44 20 7946 0018` later. When a screenshot
/// brings an international number, the screenshots showing its national form (an FTS phrase of
/// its digit groups, so `020-7946-0018` too) are read again, and gain it when their own text
/// gives no other country (``PhoneEvidence``). So the order screenshots arrive in does not change
/// what is linked.
enum NationalNumbers {
    /// Reads again the screenshots showing the national form of the international numbers
    /// among `entities` (those of screenshot `id`), connects those that gained one; returns them.
    @discardableResult
    static func revisit(after id: Int64, entities: [Entity], database: LensDatabase, extractor: EntityExtractor,
                        connections: ConnectionKeeper?) throws -> [Int64] {
        let library = PhoneNumberLibrary()
        var changed: Set<Int64> = []
        for number in Set(entities.filter { $0.type == .phone && $0.normalized.hasPrefix("+") }.map(\.normalized)) {
            // Only numbers dialled with a trunk `0` are ever read from the library (the rule's own bound).
            guard let national = library.nationalFormat(of: number), PhoneEvidence.isTrunkNumber(national) else { continue }
            let groups = national.split { !("0"..."9").contains($0) }.map(String.init)
            let shown = try database.screenshots(showingDigitGroups: groups, excluding: id)
            changed.formUnion(try database.reextractEntities(ids: shown) { text, seen, stored in
                guard !stored.contains(where: { $0.type == EntityType.phone.rawValue && $0.normalized == number }) else { return nil }
                let found = extractor.entities(in: text, reference: seen)
                // Only the number is taken: the rest of what is stored stays as its import found it.
                guard let gained = found.first(where: { $0.type == .phone && $0.normalized == number }) else { return nil }
                let kept = stored.compactMap(\.entity)
                guard !kept.contains(where: { $0.start < gained.end && gained.start < $0.end }) else { return nil }
                return (kept + [gained]).sorted { ($0.start, $0.end) < ($1.start, $1.end) }
            })
        }
        for other in changed.sorted() { try connections?.connect(other) }
        return changed.sorted()
    }
}
