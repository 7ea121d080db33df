#if canImport(Glibc)
import Glibc
import IMUCore
import ProcFiles
#endif

/// What /proc says about one process at one moment: CPU time and voluntary context switches
/// (each one a wake-up after the thread slept) summed over its threads, and its resident memory.
struct ProcSample {
    /// Per thread id: (CPU ns from schedstat, voluntary context switches).
    var threads: [Int32: (cpuNs: Int64, voluntary: Int64)] = [:]
    /// Per thread id: its name (/proc/PID/task/TID/comm: "imukit-engine", "imukit-bus", …).
    var names: [Int32: String] = [:]
    /// VmRSS in KiB.
    var rssKiB = 0
    /// utime + stime of the whole process from /proc/PID/stat, s: clock ticks (10 ms), but
    /// including threads that have ended, which the per-thread sums miss.
    var processCPUSeconds = 0.0
    /// Boot-clock time of the sample, s.
    var time = 0.0

    static func read(pid: Int32) -> ProcSample? {
        var s = ProcSample()
        s.time = monotonicSeconds()
        guard let status = ProcFile.readText("/proc/\(pid)/status") else { return nil }
        s.rssKiB = ProcFile.field(status, "VmRSS:") ?? 0
        if let stat = ProcFile.readText("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") {
            // Fields after "(comm)": state is field 3, utime 14, stime 15 (proc(5)).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 12, let u = Double(fields[11]), let k = Double(fields[12]) {
                s.processCPUSeconds = (u + k) / Double(sysconf(Int32(_SC_CLK_TCK)))
            }
        }
        guard let dir = opendir("/proc/\(pid)/task") else { return nil }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            guard let tid = Int32(name) else { continue }
            // schedstat: ns on the CPU, ns waiting on a run queue, time slices (Documentation/scheduler/sched-stats.rst).
            guard let sched = ProcFile.readText("/proc/\(pid)/task/\(tid)/schedstat"),
                  let cpu = sched.split(separator: " ").first.flatMap({ Int64($0) }),
                  let taskStatus = ProcFile.readText("/proc/\(pid)/task/\(tid)/status"),
                  let voluntary = ProcFile.field(taskStatus, "voluntary_ctxt_switches:") else { continue }
            s.threads[tid] = (cpu, Int64(voluntary))
            // A thread names itself (any bytes): escaped before it can reach the terminal.
            s.names[tid] = ProcFile.readText("/proc/\(pid)/task/\(tid)/comm")?.split(separator: "\n").first.map { String($0).escapedForTerminal } ?? "?"

        }
        return s
    }

    /// CPU seconds and wake-ups between `earlier` and `self`, over the threads alive now (a
    /// thread born in between counts from zero; one that ended is missed and reported).
    func since(_ earlier: ProcSample) -> (cpuSeconds: Double, wakeups: Int64, threadsEnded: Int) {
        var cpu: Int64 = 0, wakeups: Int64 = 0
        for (tid, now) in threads {
            let before = earlier.threads[tid] ?? (0, 0)
            cpu += now.cpuNs - before.cpuNs
            wakeups += now.voluntary - before.voluntary
        }
        let ended = earlier.threads.keys.filter { threads[$0] == nil }.count
        return (Double(cpu) * 1e-9, wakeups, ended)
    }

    /// Wake-ups and CPU seconds between `earlier` and `self` by thread name (threads of one name
    /// summed: the cooperative pool's, Dispatch's), most wake-ups first.
    func byName(since earlier: ProcSample) -> [(name: String, wakeups: Int64, cpuSeconds: Double)] {
        var out: [String: (Int64, Int64)] = [:]
        for (tid, now) in threads {
            let before = earlier.threads[tid] ?? (0, 0)
            let name = names[tid] ?? "?"
            out[name, default: (0, 0)].0 += now.voluntary - before.voluntary
            out[name, default: (0, 0)].1 += now.cpuNs - before.cpuNs
        }
        return out.map { ($0.key, $0.value.0, Double($0.value.1) * 1e-9) }.sorted { $0.wakeups > $1.wakeups }
    }

}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

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
