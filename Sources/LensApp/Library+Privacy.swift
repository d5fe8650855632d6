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
    public func maskStoredTexts(all: Bool, privacy: LensConfiguration.Privacy, region: String) throws -> MaskingReport {
        let filter = PrivacyFilter(mask: privacy.mask, skipImagesWith: privacy.skipImagesWith)
        let extractor = EntityExtractors.make(region: region)
        let (checked, changed) = try database.maskStoredTexts(onlyUnchecked: !all, { filter.filter($0) },
                                                              extract: { extractor.entities(in: $0) })
        var report = MaskingReport(checked: checked, changed: changed.count)
        if !changed.isEmpty { report.connections = try MindMapUseCases.rebuild(self).edges }
        return report
    }
}
