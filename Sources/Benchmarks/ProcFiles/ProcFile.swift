import Glibc

/// Reading `/proc` for the benchmarks that measure a running process (imu-bench-power: CPU time
/// and wake-ups; imu-bench-memory: RSS and mappings). Plain C stdio, so a benchmark measures its
/// subject, not Foundation's file layer.
public enum ProcFile {
    /// The whole text of a `/proc` file (their sizes are unknown until read), nil when it cannot
    /// be opened (the process is gone).
    public static func readText(_ path: String) -> String? {
        guard let f = fopen(path, "re") else { return nil }
        defer { fclose(f) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n <= 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The integer after `key` on its line ("VmRSS:    23456 kB" → 23456).
    public static func field(_ text: String, _ key: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            return Int(line.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}
