#if canImport(Glibc)
import Glibc
import IMUCore
import ProcFiles
#endif

/// One process's memory as /proc tells it (proc(5)): VmRSS from `status`, Pss from
/// `smaps_rollup`, and the resident KiB of every mapping in `smaps`, sorted into kinds.
struct MemoryMap {
    /// One mapping: its size (KiB), its resident and private-dirty KiB, its permissions and file.
    struct Mapping {
        var sizeKiB = 0, rssKiB = 0, dirtyKiB = 0
        var permissions = "", path = ""
    }

    var rssKiB = 0, pssKiB = 0, anonymousKiB = 0, threads = 0
    var mappings: [Mapping] = []

    static func read(pid: Int32) -> MemoryMap? {
        guard let status = ProcFile.readText("/proc/\(pid)/status"), let smaps = ProcFile.readText("/proc/\(pid)/smaps") else { return nil }
        var m = MemoryMap()
        m.rssKiB = ProcFile.field(status, "VmRSS:") ?? 0
        m.anonymousKiB = ProcFile.field(status, "RssAnon:") ?? 0
        m.threads = ProcFile.field(status, "Threads:") ?? 0
        m.pssKiB = ProcFile.readText("/proc/\(pid)/smaps_rollup").flatMap { ProcFile.field($0, "Pss:") } ?? 0
        for line in smaps.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = parts.first, range.contains("-"), range.first?.isHexDigit == true, parts.count >= 5 {
                // address perms offset dev inode [path]
                let bounds = range.split(separator: "-").compactMap { UInt64($0, radix: 16) }
                var mapping = Mapping()
                mapping.sizeKiB = bounds.count == 2 ? Int((bounds[1] - bounds[0]) / 1024) : 0
                mapping.permissions = String(parts[1])
                // A file name may hold any byte but "/" and NUL: escaped before it can reach the terminal.
                mapping.path = parts.count >= 6 ? parts[5...].joined(separator: " ").escapedForTerminal : ""
                m.mappings.append(mapping)
            } else if line.hasPrefix("Rss:"), !m.mappings.isEmpty {
                m.mappings[m.mappings.count - 1].rssKiB = kib(parts)
            } else if line.hasPrefix("Private_Dirty:"), !m.mappings.isEmpty {
                m.mappings[m.mappings.count - 1].dirtyKiB = kib(parts)
            }
        }
        return m
    }

    /// Resident KiB by kind, largest first. Thread stacks are the anonymous read-write mappings
    /// of the stack size (`ulimit -s`, 8 MiB by default) right after a one-page guard; glibc
    /// malloc arenas reserve 64 MiB (HEAP_MAX_SIZE on 64-bit) of which the first part is read-write.
    func byKind(stackKiB: Int) -> [(kind: String, rssKiB: Int, count: Int, reservedKiB: Int)] {
        var totals: [String: (Int, Int, Int)] = [:]
        for (i, m) in mappings.enumerated() where m.rssKiB > 0 || m.path.isEmpty {
            let afterGuard = i > 0 && mappings[i - 1].permissions.hasPrefix("---") && mappings[i - 1].sizeKiB == 4
            let kind: String
            if m.path.isEmpty {
                if afterGuard, m.sizeKiB == stackKiB { kind = "thread stacks (\(stackKiB / 1024) MiB reserved each)" }
                else if m.permissions.hasPrefix("rw"), i + 1 < mappings.count, mappings[i + 1].path.isEmpty,
                        mappings[i + 1].permissions.hasPrefix("---"), m.sizeKiB + mappings[i + 1].sizeKiB == 65_536 {
                    kind = "malloc arenas of threads (64 MiB reserved each)"
                } else { kind = "other anonymous memory" }
            } else if m.path == "[heap]" { kind = "main malloc heap" }
            else if m.path == "[stack]" { kind = "main thread stack" }
            else if m.path.hasPrefix("[") { kind = m.path }
            else { kind = Self.library(m.path) }
            let old = totals[kind] ?? (0, 0, 0)
            totals[kind] = (old.0 + m.rssKiB, old.1 + 1, old.2 + m.sizeKiB)
        }
        return totals.map { ($0.key, $0.value.0, $0.value.1, $0.value.2) }.sorted { $0.rssKiB > $1.rssKiB }
    }

    /// A file's kind: the Swift runtime, Foundation with ICU, the C library, or the file itself.
    static func library(_ path: String) -> String {
        let name = String(path.split(separator: "/").last ?? Substring(path))
        if name.hasPrefix("libFoundation") || name.hasPrefix("lib_Foundation") {
            return "Foundation and ICU (" + name.split(separator: ".").first.map(String.init)! + ")"
        }
        if path.contains("/lib/swift/") { return "Swift runtime (" + name.split(separator: ".").first.map(String.init)! + ")" }
        if name.hasPrefix("libc.so") || name.hasPrefix("libm.so") || name.hasPrefix("ld-linux") || name.hasPrefix("libstdc++")
            || name.hasPrefix("libgcc_s") || name.hasPrefix("libpthread") { return "C and C++ runtime (" + name + ")" }
        // Split by who loads them (readelf -d, Debian 12): what only libiio needs would leave a
        // process that opened no IIO source if libiio were loaded on demand (docs/memory.md).
        if Self.libiioOnly.contains(where: name.hasPrefix) { return Self.libiioKind }
        if Self.libsystemdOnly.contains(where: name.hasPrefix) { return "libsystemd and what it loads (gcrypt, zstd, lz4, lzma, cap)" }
        if name.hasPrefix("lib") { return "other C libraries (sqlite, libgps, libdbus, libi2c)" }
        return "the executable (" + name + ")"
    }

    static let libiioKind = "libiio and what only it loads (libxml2, Debian ICU, libusb, libudev, avahi, zlib)"
    static let libiioOnly = ["libiio.", "libxml2.", "libicuuc.", "libicudata.", "libusb-1.0.", "libudev.", "libavahi-", "libz."]
    static let libsystemdOnly = ["libsystemd.", "libgcrypt.", "libgpg-error.", "libzstd.", "liblz4.", "liblzma.", "libcap."]

    private static func kib(_ parts: [Substring]) -> Int { parts.count >= 2 ? Int(parts[1]) ?? 0 : 0 }
}
