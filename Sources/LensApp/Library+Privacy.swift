import LensCore

extension Library {
    /// What masking the stored texts did.
    public struct MaskingReport: Sendable, Equatable {
        /// Texts looked at.
        public var checked: Int
        /// Texts that held secrets and were rewritten.
        public var changed: Int
        /// Connections after the rebuild (when something changed).
        public var connections: Int?
    }

    /// How many stored texts have not been through secret masking (`lens doctor` reports them).
    public func uncheckedTextCount() throws -> Int { try database.uncheckedTextCount() }

    /// Masks the secrets of stored texts: every text (`lens reindex --privacy`, after a change of
    /// `[privacy] mask`) or only those never checked (a library from before masking existed, a
    /// restored backup). The index, entities and code payloads are rewritten, the freed pages
    /// wiped, and the connections rebuilt when anything changed (manual links stay).
    public func maskStoredTexts(all: Bool, privacy: LensConfiguration.Privacy, region: String,
                                phoneRegions: [String] = []) throws -> MaskingReport {
        let filter = PrivacyFilter(mask: privacy.mask, skipImagesWith: privacy.skipImagesWith)
        let extractor = EntityExtractors.make(region: region, fallbackRegions: phoneRegions, knowing: database)
        let (checked, changed) = try database.maskStoredTexts(onlyUnchecked: !all, { filter.filter($0) },
                                                              extract: { extractor.entities(in: $0, reference: $1) })
        var report = MaskingReport(checked: checked, changed: changed.count)
        if !changed.isEmpty { report.connections = try MindMapUseCases.rebuild(self).edges }
        return report
    }

    /// Where the masked secrets of a screenshot were on the image: the boxes of the words that
    /// stand for them (each the union of the secret's own words). Thumbnails paint them over.
    public func secretBoxes(id: Int64) throws -> [(x: Int, y: Int, width: Int, height: Int)] {
        guard let detail = try database.screenshot(id: id) else { return [] }
        let spans = detail.entities.filter { $0.type == EntityType.secret.rawValue }.compactMap { entity -> Range<Int>? in
            guard let start = entity.start, let end = entity.end, start < end else { return nil }
            return start..<end
        }
        return detail.words.filter { word in
            spans.contains { $0.overlaps(word.textOffset..<(word.textOffset + word.textLength)) }
        }.map { (x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
    }
}
