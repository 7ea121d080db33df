import Foundation
import OffPool
import Testing

/// `imu-steps --since TIME` reads local time through the C library (`LocalTime`): the forms it
/// takes and refuses, in a zone with daylight-saving time (TZ=Europe/Berlin: 29 March 2026 skips
/// 02:00–03:00, 25 October 2026 has 02:00–03:00 twice). Accepted times go on to ask the daemon,
/// which is absent here: exit 1 naming the bus DBUS_SYSTEM_BUS_ADDRESS names. Refused ones: exit 2 naming the forms.
@Suite(.offPool, .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Berlin"), "needs the zone files: apt-get install tzdata"))
struct SinceParsingTests {
    static let environment = ["TZ": "Europe/Berlin", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/imukit-bus"]

    @Test(arguments: ["2026-03-29T03:30", "2026-03-29", "00:00", "2026-03-29 01:59", "2026-10-25T02:30:00", "2024-02-29"])
    func acceptedTimesGoOnToTheDaemon(text: String) throws {
        let r = try ToolRunner.run("imu-steps", ["--since", text], environment: Self.environment)
        #expect(r.status == 1 && r.stderr.contains("cannot ask the step daemon imu-stepd"), "\(text): \(r.stderr)")
    }

    /// HH:MM is today's: 7:05 is accepted, and it is in the future before 07:05 Berlin time (a
    /// CI run after midnight there), past after it. The clock is read before and after the run,
    /// so a run that spans 07:05 is not judged.
    @Test func aTimeOfDayIsToday() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Europe/Berlin"))
        func beforeSevenFive() -> Bool {
            let now = calendar.dateComponents([.hour, .minute], from: Date())
            return (now.hour ?? 0) * 60 + (now.minute ?? 0) < 7 * 60 + 5
        }
        let before = beforeSevenFive()
        let r = try ToolRunner.run("imu-steps", ["--since", "7:05"], environment: Self.environment)
        guard before == beforeSevenFive() else { return }
        if before {
            #expect(r.status == 2 && r.stderr.contains("is in the future"), "\(r.stderr)")
        } else {
            #expect(r.status == 1 && r.stderr.contains("cannot ask the step daemon imu-stepd"), "\(r.stderr)")
        }
    }

    /// A date or time in the right form that does not exist says which field and the nearest that does.
    @Test(arguments: [("2026-02-30", "2026-02-28"), ("2025-02-29", "2025-02-28"), ("24:00", "23:00"), ("12:60", "12:59")])
    func timesThatDoNotExistNameTheNearestThatDoes(text: String, nearest: String) throws {
        let r = try ToolRunner.run("imu-steps", ["--since", text], environment: Self.environment)
        #expect(r.status == 2 && r.stderr.contains("--since \(text) names no ") && r.stderr.contains("fix: give one that exists, e.g. --since \(nearest)\n"),
                "\(text): \(r.stderr)")
    }

    @Test(arguments: ["2026-03-29T02:30", "12:00:00", "2026-3-5T7", "26-03-29",
                      "2026-03-29T03:30Z", "2026-03-29 03:30:00", "１２:００", "yesterday"])
    func refusedTimesNameTheForms(text: String) throws {
        let r = try ToolRunner.run("imu-steps", ["--since", text], environment: Self.environment)
        #expect(r.status == 2 && r.stderr.contains("HH:MM, YYYY-MM-DD or YYYY-MM-DDTHH:MM"), "\(text): \(r.stderr)")
    }

    @Test func aTimeInTheFutureIsRefused() throws {
        let r = try ToolRunner.run("imu-steps", ["--since", "2999-01-01"], environment: Self.environment)
        #expect(r.status == 2 && r.stderr.contains("is in the future"), "\(r.stderr)")
    }
}
