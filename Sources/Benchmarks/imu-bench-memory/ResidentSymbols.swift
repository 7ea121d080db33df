import Foundation
#if canImport(Glibc)
import Glibc
import ProcFiles
#endif

/// Which modules own the resident pages of a statically linked executable, where smaps shows only
/// one file: every symbol from `nm -S` (address, size, name) is charged with its bytes that lie on
/// pages /proc/PID/pagemap marks present (bit 63; readable without privileges, proc(5)). Swift
/// symbols name their module in the mangling (`$s10Foundation…` → Foundation); CoreFoundation,
/// ICU (versioned `_74` names), the Swift runtime and Dispatch are known by their C prefixes.
/// Bytes no sized symbol covers (headers, relocation tables, unwind tables) are not charged.
enum ResidentSymbols {
    static func byModule(pid: Int32) -> [(module: String, residentKiB: Int, linkedKiB: Int)]? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"),
              let base = loadBase(pid: pid, exe: exe), let symbols = symbols(exe) else { return nil }
        let pagemap = open("/proc/\(pid)/pagemap", O_RDONLY | O_CLOEXEC)
        guard pagemap >= 0 else { return nil }
        defer { close(pagemap) }
        var present: [UInt64: Bool] = [:]
        func isPresent(_ page: UInt64) -> Bool {
            if let known = present[page] { return known }
            var entry: UInt64 = 0
            let ok = pread(pagemap, &entry, 8, off_t((base + page) / 4096 * 8)) == 8 && entry >> 63 == 1
            present[page] = ok
            return ok
        }
        var resident: [String: UInt64] = [:], linked: [String: UInt64] = [:]
        for (address, size, name) in symbols {
            let module = owner(name)
            linked[module, default: 0] += size
            var page = address & ~4095
            while page < address + size {
                if isPresent(page) { resident[module, default: 0] += min(page + 4096, address + size) - max(page, address) }
                page += 4096
            }
        }
        return linked.keys.map { ($0, Int((resident[$0] ?? 0) / 1024), Int(linked[$0]! / 1024)) }.sorted { $0.residentKiB > $1.residentKiB }
    }

    /// The module a symbol belongs to.
    static func owner(_ name: Substring) -> String {
        var s = name
        if s.hasPrefix("_") { s = s.dropFirst() }
        if s.hasPrefix("$s") {
            let rest = s.dropFirst(2).drop(while: \.isNumber)
            if let digits = Int(s.dropFirst(2).prefix(while: \.isNumber)), digits > 0, rest.count >= digits,
               rest.first != "_" || rest.hasPrefix("_Foundation") { return String(rest.prefix(digits)) }
            return "Swift"   // $ss…, $sS…, $s12_Concurrency…: the standard library and runtime
        }
        if s.hasPrefix("CF") || s.hasPrefix("_CF") || s.hasPrefix("kCF") || s.hasPrefix("_kCF") { return "CoreFoundation" }
        if s.hasPrefix("icu_") || s.hasPrefix("u_") || s.hasPrefix("ucal_") || s.hasPrefix("udat_") || s.hasPrefix("uloc_")
            || s.hasPrefix("ures_") || s.hasPrefix("ucol_") || s.hasPrefix("ZN6icu_")
            || (s.dropLast().hasSuffix("_7") && s.last?.isNumber == true) { return "ICU" }   // ICU 7x's versioned C names
        if s.hasPrefix("icudt") { return "ICU data" }
        if s.hasPrefix("swift") || (s.hasPrefix("ZN") && s.contains("swift")) { return "Swift" }
        if s.hasPrefix("dispatch_") || s.hasPrefix("_dispatch") || s.hasPrefix("_os_") { return "Dispatch" }
        return "other (C, C++ and data)"
    }

    /// Where the file's offset 0 is mapped.
    static func loadBase(pid: Int32, exe: String) -> UInt64? {
        guard let maps = ProcFile.readText("/proc/\(pid)/maps") else { return nil }
        for line in maps.split(separator: "\n") where line.hasSuffix(exe) {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 3, let start = parts[0].split(separator: "-").first.flatMap({ UInt64($0, radix: 16) }),
                  let offset = UInt64(parts[2], radix: 16) else { continue }
            return start - offset
        }
        return nil
    }

    /// (address, size, name) of every defined symbol with a size, from binutils' nm.
    static func symbols(_ exe: String) -> [(UInt64, UInt64, Substring)]? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/nm")
        p.arguments = ["-S", "--defined-only", exe]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return nil }
        let data = try? pipe.fileHandleForReading.readToEnd() ?? Data()
        p.waitUntilExit()
        guard p.terminationStatus == 0, let data else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ", maxSplits: 3)
            guard f.count == 4, let a = UInt64(f[0], radix: 16), let s = UInt64(f[1], radix: 16), s > 0 else { return nil }
            return (a, s, f[3])
        }
    }
}
