import Foundation
import Synchronization
import Testing
@testable import IMUCore

/// When the canary task last woke (CLOCK_MONOTONIC, ns); read by the stack watcher.
private let canaryBeatNs = Atomic<Int64>(0)

private func monotonicNs() -> Int64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
}

private func wallSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_REALTIME, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

private func write(_ text: String, to path: String, mode: String) {
    guard let f = fopen(path, mode + "e") else { return }   // e: O_CLOEXEC
    fputs(text, f)
    fclose(f)
}

/// Diagnostic, off unless IMUKIT_POOL_CANARY names an output path: a task on the cooperative pool
/// that asks to wake every 100 ms for the rest of the test run and records how late it woke. A
/// late wake-up means every pool thread was busy: blocking calls on the pool starve all tasks.
/// `PATH` gets the late wake-ups (over 0.5 s, with the wall-clock time), `PATH.summary` the worst
/// and counts, rewritten as the run goes. With IMUKIT_POOL_CANARY_STACKS=1 a thread of its own
/// dumps every thread's stack (gdb) while the pool is starved for more than 2 s, at most every 10 s,
/// to `PATH.stacks.N`: the frames under the pool threads name the blocking tests. The canary
/// starts while Swift Testing plans the run (it evaluates the test's condition then), before any
/// test; the test itself only says whether it started.
@Suite struct PoolCanaryTests {
    static let output = ProcessInfo.processInfo.environment["IMUKIT_POOL_CANARY"]

    /// Starts the canary once; true when it runs.
    static let started: Bool = {
        guard let path = output else { return false }
        do { try start(path: path) } catch { return false }
        return true
    }()

    @Test(.enabled(if: started, "IMUKIT_POOL_CANARY unset")) func poolCanary() {
        #expect(Self.started, "the canary did not start")
    }

    static func start(path: String) throws {
        let period: Int64 = 100_000_000   // ns
        canaryBeatNs.store(monotonicNs(), ordering: .relaxed)
        write("", to: path, mode: "w")
        Task.detached {
            let start = monotonicNs()
            var worst: Int64 = 0, ticks = 0, over = [0, 0, 0, 0]
            let limits: [Int64] = [500_000_000, 1_000_000_000, 5_000_000_000, 10_000_000_000]
            while true {
                let t0 = monotonicNs()
                try? await Task.sleep(nanoseconds: UInt64(period))
                let t1 = monotonicNs()
                canaryBeatNs.store(t1, ordering: .relaxed)
                let late = t1 - t0 - period
                ticks += 1
                worst = max(worst, late)
                for (i, limit) in limits.enumerated() where late > limit { over[i] += 1 }
                if late > limits[0] {
                    write(String(format: "%.3f late %.2f s at +%.1f s\n", wallSeconds(), Double(late) / 1e9,
                                 Double(t1 - start) / 1e9), to: path, mode: "a")
                }
                write(String(format: "worst %.2f s over %.0f s, %d wake-ups; late >0.5 s %d, >1 s %d, >5 s %d, >10 s %d\n",
                             Double(worst) / 1e9, Double(t1 - start) / 1e9, ticks, over[0], over[1], over[2], over[3]),
                      to: path + ".summary", mode: "w")
            }
        }
        guard ProcessInfo.processInfo.environment["IMUKIT_POOL_CANARY_STACKS"] == "1" else { return }
        try OwnThread.start(name: "pool-watch") {
            var lastDump: Int64 = 0, dumps = 0
            while true {
                usleep(250_000)
                let now = monotonicNs()
                guard now - canaryBeatNs.load(ordering: .relaxed) > 2_000_000_000, now - lastDump > 10_000_000_000 else { continue }
                lastDump = now
                dumps += 1
                let p = Process()
                p.executableURL = URL(fileURLWithPath: "/usr/bin/gdb")
                p.arguments = ["-p", "\(getpid())", "-batch", "-ex", "thread apply all bt 40"]
                let file = "\(path).stacks.\(dumps)"
                _ = FileManager.default.createFile(atPath: file, contents: nil)
                p.standardOutput = FileHandle(forWritingAtPath: file)
                p.standardError = FileHandle.nullDevice
                try? p.run()
                p.waitUntilExit()
            }
        }
    }
}
