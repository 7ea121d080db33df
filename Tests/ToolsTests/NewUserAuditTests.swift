import Foundation
import Testing

/// The tools tried by a new user and a hostile reviewer (session 3's audit): each test runs the
/// built tool as a process with input that crashed it, hung it, or got an answer that was no answer.
@Suite struct NewUserAuditTests {
    /// `--simulate walk:1e300` trapped converting the seconds to an Int; `walk:10@1e300` planned
    /// steps forever and ignored SIGTERM; `@1000` and `*1e300` ran and counted 0 steps.
    @Test(arguments: ["walk:1e300", "walk:99999999999999999999", "walk:10@1e300", "walk:10@1000",
                      "walk:10*1e300", "stairs-up:100000"])
    func aCompositionBeyondItsRangesIsAUsageError(_ scenario: String) throws {
        for tool in [["imu-steps", "--json"], ["imu-plot", "-o", "-"]] {
            let r = try ToolRunner.run(tool[0], ["--simulate", scenario] + tool.dropFirst(), timeout: 30)
            #expect(r.status == 2, "\(tool[0]) \(scenario): \(r.stderr)")
            #expect(r.stderr.contains("bad scenario item '\(scenario)'"), "\(tool[0]) \(scenario): \(r.stderr)")
            #expect(!r.stderr.contains("Fatal error"), "\(tool[0]) \(scenario): \(r.stderr)")
        }
    }
}

extension NewUserAuditTests {
    /// A live run with `--json > /dev/full` played on to its end (for a sensor: until Ctrl-C),
    /// writing nothing, and only then said so; it now stops at the first write that fails.
    @Test func aLiveRunStopsWhenItsOutputCannotBeWritten() throws {
        let started = Date()
        let r = try ShellRunner.run("\"$BIN/imu-steps\" --simulate walk:90 --json > /dev/full", timeout: 80)
        let seconds = Date().timeIntervalSince(started)
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("cannot write to standard output: No space left on device"), "stderr: \(r.stderr)")
        // The walk plays in real time for 90 s; its first output is flushed within about 10 s.
        #expect(seconds < 45, "ran \(seconds) s after its output was lost")
    }

    /// A descriptor that is not full got "fix: free space on the disk".
    @Test func aClosedStandardOutputIsNotCalledAFullDisk() throws {
        let path = try ToolRunner.temporaryFile("w.csv", "t,ax,ay,az\n1,0,0,1\n2,0,0,1\n")
        let r = try ShellRunner.run("\"$BIN/imu-steps\" --replay '\(path)' --json >&-")
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("cannot write to standard output"), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("free space"), "stderr: \(r.stderr)")
    }
}
