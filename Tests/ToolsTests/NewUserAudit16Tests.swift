import Foundation
import OffPool
import Testing

/// The session-16 new-user audit: each tool tried as a new user would, as a process (off the
/// pool: each test waits for tool processes).
@Suite(.offPool) struct NewUserAudit16Tests {
    /// An unknown option that shares no three letters with one got only "see --help", in every
    /// tool: the shared parser names the nearest option now.
    @Test(arguments: [("imu-steps", "--josn", "--json"), ("imu-record", "--output", "--out"), ("imu-info", "--no-fifi", "--no-fifo"),
                      ("imu-calibrate", "--sohw", "--show"), ("imu-plot", "--widht", "--width"), ("imu-stepd", "--cofnig", "--config"),
                      ("imu-record", "-duration", "--duration")])
    func aTypoNamesTheNearestOption(tool: String, typo: String, meant: String) throws {
        let r = try ToolRunner.run(tool, [typo, "1"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("\(tool): unknown option \(typo) (did you mean \(meant)?)\n"), "\(r.stderr)")
    }


}
