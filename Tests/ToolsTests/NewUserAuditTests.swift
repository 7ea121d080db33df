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
