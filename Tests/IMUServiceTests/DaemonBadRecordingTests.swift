import Foundation
import OffPool
import Testing

/// The bad-input audit: imu-stepd replaying a recording with a malformed line.
@Suite(.offPool, .serialized) struct DaemonBadRecordingTests {
    /// The supervisor reopened the file every second (the backoff restarted at each successful
    /// open) and counted the steps before the bad line again each time: totals grew forever.
    @Test func aMalformedRecordingIsNotReplayedAgainAndAgain() throws {
        guard let bus = try PrivateBus.start() else { return print("skipped: dbus-daemon is not installed (apt-get install dbus)") }
        let state = try scratch()
        let recording = state + "/walk.csv"
        let sim = try Run.command([DaemonProcess.tool("imu-record"), "--simulate", "walk:20", "--speed", "max", "--out", recording], timeout: 60)
        #expect(sim.status == 0, "\(sim.stderr)")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: recording))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("1000000,not a number,0,1\n".utf8))
        try handle.close()
        let daemon = try DaemonProcess(bus: bus, stateDirectory: state + "/s", settings: ["replay = \(recording)", "speed = 1000"])
        #expect(try PrivateBus.waitFor(20) { busValue(try bus.property("SensorState")) == "lost" }, "\(daemon.log)")
        let first = Int(busValue(try bus.property("TodaySteps"))) ?? 0
        #expect(first > 10, "the walk before the bad line is counted: \(daemon.log)")
        usleep(4_000_000)   // the old code replayed it about every second
        #expect(Int(busValue(try bus.property("TodaySteps"))) == first, "\(daemon.log)")
        #expect(busValue(try bus.property("SensorMessage")).contains("walk.csv"))
        #expect(daemon.log.contains("is not opened again"), "\(daemon.log)")
        // One story in the journal: the loss line does not promise a retry that will not come.
        #expect(daemon.log.contains("sensor lost: ") && !daemon.log.contains("retrying"), "\(daemon.log)")
    }
}
