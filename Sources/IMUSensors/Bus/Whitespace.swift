/// Trimming for values read from sysfs and config files, without full Foundation (whose ICU
/// libraries add about 6 MB to every process's memory: docs/ARCHITECTURE.md, "Capture").
extension StringProtocol {
    /// The text without leading and trailing spaces, tabs, CR and LF.
    var trimmedWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
