import Foundation
import Testing
@testable import IMUCore

/// Whether a replayed recording that failed is worth opening again (`RetryableError`): imu-stepd
/// replays it again only when that cannot count its steps twice and may succeed.
@Suite struct RecordingErrorPermanenceTests {
    @Test func aBadLineIsPermanentSinceTheLinesBeforeItWereDelivered() throws {
        let error = try recordingError("t,ax,ay,az\n0,0,0,1\n0.01,x,0,1\n")
        #expect(error.line == 3 && error.isPermanent)
    }

    @Test func aMissingFileIsTransientADirectoryIsPermanent() throws {
        let path = try temporaryRecording("t,ax,ay,az\n")
        let directory = String(path[..<path.lastIndex(of: "/")!])
        for (name, permanent) in [(directory + "/not-yet.csv", false), (directory, true)] {
            do {
                _ = try RecordingReader(path: name)
                Issue.record("opened \(name)")
            } catch let error as RecordingError {
                #expect(error.line == 0 && error.isPermanent == permanent, "\(error)")
            }
        }
    }

    @Test func permissionDeniedIsPermanentOtherOpenFailuresAreNot() {
        for code in [EACCES, EPERM, EROFS] {
            #expect(RecordingError.access("/srv/walk.csv", errno: code, creating: false).isPermanent, "errno \(code)")
        }
        for code in [ENOENT, EIO, EMFILE] {
            #expect(!RecordingError.access("/srv/walk.csv", errno: code, creating: false).isPermanent, "errno \(code)")
        }
    }
}
