import Foundation
import IMUHistory

/// `imu-bench-history --writer PATH`: the process the kill -9 test (IMUHistoryTests) shoots.
/// It records a step every 0.25 s on the real boot clock and commits every second, printing
/// "committed STEPS" after each commit (flushed) so the test knows what must survive. It stops by
/// itself after `limit` seconds so a forgotten one never runs for ever.
func runWriter(path: String, limit: Double = 120) -> Int32 {
    let store: HistoryStore
    do { store = try HistoryStore(path: path) } catch {
        // Escaped, with the fix and the contract's exit code (a directory is 2, not 1).
        let known = error as? HistoryError
        let fix = known?.fix.map { "  fix: \($0)\n" } ?? ""
        StandardErrorLine.write("imu-bench-history: \(error)\n\(fix)")
        return known?.exitStatus.rawValue ?? 1
    }
    let mapping = BootTimeMapping.current()
    var snapshot = PedometerSnapshot()
    let start = BootClock.nowSeconds()
    var lastCommit = start
    say("started")
    while BootClock.nowSeconds() - start < limit {
        usleep(250_000)   // 4 steps/s: a brisk walk's cadence (about 2 Hz) doubled, to write more
        let now = BootClock.nowSeconds()
        snapshot.steps += 1
        snapshot.distanceMeters += 0.7
        snapshot.time = now
        store.record([.step(time: now)], snapshot: snapshot, mapping: mapping)
        if now - lastCommit >= 1 {
            do { try store.commit() } catch {
                say("commit failed: \(error)")
                continue
            }
            lastCommit = now
            say("committed \(snapshot.steps)")
        }
    }
    return 0
}

/// Writes one line to stdout at once (unbuffered), so a SIGKILL cannot swallow it. A line that
/// cannot be written ends the writer: the test reads its commits from these lines.
private func say(_ line: String) {
    do { try FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8)) } catch {
        try? FileHandle.standardError.write(contentsOf: Data("imu-bench-history: cannot write to standard output: \(error)\n".utf8))
        exit(1)
    }
}
