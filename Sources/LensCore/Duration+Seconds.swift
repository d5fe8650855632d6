extension Duration {
    /// The duration in seconds, for rates and reports.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
