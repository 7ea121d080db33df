#if canImport(Glibc)
import Glibc
import IMUCore
#endif

/// What /proc says about one process at one moment: CPU time and voluntary context switches
/// (each one a wake-up after the thread slept) summed over its threads, and its resident memory.
public struct ProcSample {
    /// Per thread id: (CPU ns from schedstat, voluntary context switches).
    public var threads: [Int32: (cpuNs: Int64, voluntary: Int64)] = [:]
    /// Per thread id: its name (/proc/PID/task/TID/comm: "imukit-engine", "imukit-bus", …).
    public var names: [Int32: String] = [:]
    /// VmRSS in KiB.
    public var rssKiB = 0
    /// utime + stime of the whole process from /proc/PID/stat, s: clock ticks (10 ms), but
    /// including threads that have ended, which the per-thread sums miss.
    public var processCPUSeconds = 0.0
    /// Boot-clock time of the sample, s.
    public var time = 0.0

    public static func read(pid: Int32) -> ProcSample? {
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
    public func since(_ earlier: ProcSample) -> (cpuSeconds: Double, wakeups: Int64, threadsEnded: Int) {
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
    public func byName(since earlier: ProcSample) -> [(name: String, wakeups: Int64, cpuSeconds: Double)] {
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

/// CLOCK_MONOTONIC in seconds: when a sample was taken.
public func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

