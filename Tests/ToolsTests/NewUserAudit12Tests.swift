import Foundation
import OffPool
import Testing

/// Left-overs of the session-11 audit, each tried on the built tools as a process (off the pool:
/// each test waits for tool processes).
@Suite(.offPool, .serialized) struct NewUserAudit12Tests {
    /// `imu-record -o /dev/full` said "everything before this point is on disk": a device keeps
    /// no file, and free space would not help /dev/full. It now says what went where, and the fix
    /// is a file. A file on a full disk keeps its words (imuPlotOnAFullDiskSaysSpace's sibling).
    @Test func aFullDeviceIsNotCalledADisk() throws {
        let r = try ToolRunner.run("imu-record", ["--simulate", "walk:5", "--speed", "max", "-o", "/dev/full"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(!r.stderr.contains("on disk, in whole lines") && !r.stderr.contains("free space"), "\(r.stderr)")
        #expect(r.stderr.contains("/dev/full: write failed: No space left on device; /dev/full is a device or pipe, not a file on disk: 0 samples went to it before this point, in whole lines\n  fix: record to a file (--out FILE)\n"),
                "\(r.stderr)")
    }
}
