import Foundation
import Testing
@testable import IMUCore

@Suite struct AtomicFileTests {
    @Test func writesAndReplacesLeavingNoTemporaryFile() throws {
        let dir = try scratchDirectory()
        let path = dir + "/out.json"
        try AtomicFile.write("first\n", to: path)
        try AtomicFile.write("second, longer\n", to: path, mode: 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second, longer\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.json"])
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o600)
    }

    /// A failed step names the file (not its temporary name), the step and its errno, and
    /// leaves nothing behind: a directory in the way fails at the rename.
    @Test func aFailedRenameNamesTheFileAndRemovesTheTemporaryOne() throws {
        let dir = try scratchDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/in-the-way", withIntermediateDirectories: false)
        #expect(throws: AtomicFileError(path: dir + "/in-the-way", operation: "rename", errorNumber: EISDIR)) {
            try AtomicFile.write("x", to: dir + "/in-the-way")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["in-the-way"])
    }

    @Test func aMissingDirectoryFailsAtTheCreate() throws {
        let path = try scratchDirectory() + "/absent/out.svg"
        #expect(throws: AtomicFileError(path: path, operation: "create", errorNumber: ENOENT)) { try AtomicFile.write("x", to: path) }
        let error = AtomicFileError(path: path, operation: "create", errorNumber: ENOENT)
        #expect(error.description == "cannot create \(path): No such file or directory")
        #expect(error.exitStatus == .runtimeFailure)
        #expect(error.fix == nil)
    }

    /// sysfs refuses new files even to root (EACCES), so this runs as any user.
    @Test func permissionDeniedExitsThreeWithTheDirectoryToFix() throws {
        do {
            try AtomicFile.write("x", to: "/sys/imukit-atomic-test.json")
            Issue.record("wrote into /sys")
        } catch {
            #expect(error.operation == "create" && isPermissionDenied(errno: error.errorNumber), "\(error)")
            #expect(error.exitStatus == .noSensor)
            #expect(error.fix?.contains("make /sys writable by you") == true)
        }
        for code in [EPERM, EROFS] {
            #expect(AtomicFileError(path: "/etc/x", operation: "create", errorNumber: code).exitStatus == .noSensor)
        }
    }

    @Test func aFullDiskSaysToFreeSpace() {
        let error = AtomicFileError(path: "/var/lib/imukit/plot.svg", operation: "write", errorNumber: ENOSPC)
        #expect(error.reason == "No space left on device")
        #expect(error.fix?.contains("df -h /var/lib/imukit") == true)
        #expect(error.exitStatus == .runtimeFailure)
    }

    @Test func directoryOfAPath() {
        #expect(AtomicFile.directory(of: "/a/b/c.json") == "/a/b")
        #expect(AtomicFile.directory(of: "/a//b//c.json") == "/a//b")
        #expect(AtomicFile.directory(of: "/c.json") == "/")
        #expect(AtomicFile.directory(of: "c.json") == "")
        #expect(AtomicFile.directory(of: "a/b/") == "a")
        #expect(AtomicFileError(path: "c.json", operation: "create", errorNumber: EACCES).fix?.contains("make . writable") == true)
    }
}
