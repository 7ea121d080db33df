import Foundation
import OffPool
import Testing
@testable import IMUHistory

@Suite(.offPool) struct WallClockSyncTests {
    /// The RTC check reads `hctosys` of every RTC: 1 means the kernel set the clock from it at boot.
    @Test func aClockSetFromTheRTCCounts() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        for (name, value) in [("rtc0", "0\n"), ("rtc1", "1\n")] {
            try FileManager.default.createDirectory(atPath: dir.path(name), withIntermediateDirectories: true)
            try value.write(toFile: dir.path("\(name)/hctosys"), atomically: true, encoding: .utf8)
        }
        #expect(WallClockSync.clockWasSetFromRTC(dir.url.path))
        try "0\n".write(toFile: dir.path("rtc1/hctosys"), atomically: true, encoding: .utf8)
        #expect(!WallClockSync.clockWasSetFromRTC(dir.url.path))
        #expect(!WallClockSync.clockWasSetFromRTC(dir.path("absent")))
    }

    /// Without an RTC the answer is the kernel's NTP status, the bit `timedatectl` reports as
    /// "System clock synchronized" (compared when timedatectl can answer here).
    @Test func theNTPStateAgreesWithTimedatectl() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let state = WallClockSync.state(rtcDirectory: dir.path("no-rtc"))
        #expect(state != .rtc)
        #expect((WallClockSync.mapping() == nil) == (WallClockSync.state() == .unsynchronised))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timedatectl")
        process.arguments = ["show", "--property=NTPSynchronized", "--value"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else {
            print("skipped: timedatectl is absent; the NTP state is not cross-checked")
            return
        }
        let text = String(decoding: try out.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, ["yes", "no"].contains(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            print("skipped: timedatectl cannot answer here (no systemd-timedated); the NTP state is not cross-checked")
            return
        }
        #expect((state == .ntp) == (text.trimmingCharacters(in: .whitespacesAndNewlines) == "yes"))
    }
}
