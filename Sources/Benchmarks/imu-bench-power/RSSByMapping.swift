#if canImport(Glibc)
import Glibc
import IMUCore
import ProcFiles
#endif

/// Resident memory by mapping, from /proc/PID/smaps: where the RSS goes (KiB, largest first).
func rssByMapping(pid: Int32) -> [(String, Int)] {
    guard let smaps = ProcFile.readText("/proc/\(pid)/smaps") else { return [] }
    var totals: [String: Int] = [:]
    var current = "?"
    for line in smaps.split(separator: "\n", omittingEmptySubsequences: false) {
        let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if let first = parts.first, first.contains("-"), first.first?.isHexDigit == true {
            // A mapping header: address perms offset dev inode [path]
            current = parts.count >= 6 ? (String(parts[5]).split(separator: "/").last.map(String.init) ?? String(parts[5])).escapedForTerminal
                                       : "[anonymous]"
        } else if line.hasPrefix("Rss:") {
            totals[current, default: 0] += Int(parts.dropFirst().first ?? "") ?? 0
        }
    }
    return totals.sorted { $0.value > $1.value }
}
