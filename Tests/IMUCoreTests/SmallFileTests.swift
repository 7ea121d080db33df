import Foundation
import Testing
import IMUCore

/// `SmallFile.read`, the one reader of every small file (config, walker profile, calibration, MQTT
/// credentials and CA file, mount.conf): a FIFO, device or socket is refused before it is opened.
@Suite struct SmallFileTests {
    /// A FIFO without a writer read as an empty file (the walker profile "not JSON", the config
    /// all defaults), /dev/null as empty and /dev/zero as "too large": each is named for what it
    /// is, also behind a symbolic link, and a FIFO does not block.
    @Test func aFIFOOrADeviceIsRefusedForWhatItIs() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #require(mkfifo(dir + "/fifo", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/zero.json", withDestinationPath: "/dev/zero")
        for (path, kind) in [(dir + "/fifo", "a named pipe (FIFO)"), ("/dev/null", "a character device"),
                             (dir + "/zero.json", "a character device")] {
            #expect(throws: SmallFile.Failure.notARegularFile(kind: kind), "\(path)") { try SmallFile.read(path, limit: 1024) }
        }
    }

    /// What it still does: a regular file whole, a directory as EISDIR, a missing one as ENOENT,
    /// one over the limit as too large.
    @Test func aRegularFileIsReadAndTheOtherFailuresKeepTheirErrno() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "rate = 100\n".write(toFile: dir + "/c.conf", atomically: true, encoding: .utf8)
        #expect(try SmallFile.read(dir + "/c.conf", limit: 11) == Array("rate = 100\n".utf8))
        #expect(throws: SmallFile.Failure.tooLarge(limit: 10)) { try SmallFile.read(dir + "/c.conf", limit: 10) }
        #expect(throws: SmallFile.Failure.system(EISDIR)) { try SmallFile.read(dir, limit: 10) }
        #expect(throws: SmallFile.Failure.system(ENOENT)) { try SmallFile.read(dir + "/none", limit: 10) }
    }

    /// The words for each kind, which every message about a small file uses.
    @Test func kindsAreNamed() {
        #expect(SmallFile.kind(ofMode: S_IFIFO | 0o600) == "a named pipe (FIFO)")
        #expect(SmallFile.kind(ofMode: S_IFCHR) == "a character device")
        #expect(SmallFile.kind(ofMode: S_IFBLK) == "a block device")
        #expect(SmallFile.kind(ofMode: S_IFSOCK) == "a socket")
        #expect(SmallFile.kind(ofMode: S_IFREG | 0o644) == nil && SmallFile.kind(ofMode: S_IFDIR) == nil)
    }
}
