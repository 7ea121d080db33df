import Foundation
import Testing
@testable import IMUSensors

@Suite struct MountConfigTests {
    @Test func mostSpecificKeyWins() throws {
        let text = """
            # chip-to-device axes
            i2c-1-0x68-mpu6050 = 0, 0, 1; 0, 1, 0; -1, 0, 0
            mpu6050 = 0, 1, 0; -1, 0, 0; 0, 0, 1   # by chip name
            default = -1, 0, 0; 0, -1, 0; 0, 0, 1
            """
        let c = try MountConfig(text: text, path: "mount.conf")
        #expect(c.matrix(for: ["i2c-1-0x68-mpu6050", "mpu6050"]) == MountMatrix(kernelText: "0,0,1; 0,1,0; -1,0,0"))
        #expect(c.matrix(for: ["i2c-1-0x69-mpu6050", "mpu6050"]) == MountMatrix(kernelText: "0,1,0; -1,0,0; 0,0,1"))
        #expect(c.matrix(for: ["bmi160"]) == MountMatrix(kernelText: "-1,0,0; 0,-1,0; 0,0,1"))
        #expect(try MountConfig(text: "", path: "m").matrix(for: ["mpu6050"]) == nil)
    }

    @Test func badLineNamesFileAndLine() {
        do {
            _ = try MountConfig(text: "# ok\nmpu6050 = 1, 2, 3", path: "/x/mount.conf")
            Issue.record("accepted a short matrix")
        } catch {
            #expect(error.description.hasPrefix("/x/mount.conf:2:"))
            #expect(error.exitStatus == .usage)
            #expect(error.fix?.contains("KEY =") == true)
        }
    }

    @Test func aMatrixThatIsNoRotationIsRefused() {
        #expect(throws: MountConfigError.self) { try MountConfig(text: "mpu6050 = 0, 0, 0; 0, 0, 0; 0, 0, 0", path: "m") }
    }

    /// A mount.conf that cannot be read was taken as empty: the user's matrix silently did not
    /// apply. Now it is an error naming the file and the fix, permanent for imu-stepd's supervisor.
    @Test func anUnreadableFileIsAnErrorNotEmpty() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-mount-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/dir.conf", withIntermediateDirectories: true)
        try Data([0x6D, 0xFF, 0xFE, 0x3D]).write(to: URL(fileURLWithPath: base + "/latin.conf"))
        try Data(repeating: 0x23, count: MountConfig.sizeLimit + 1).write(to: URL(fileURLWithPath: base + "/huge.conf"))
        for name in ["dir.conf", "latin.conf", "huge.conf"] {
            let path = base + "/" + name
            do {
                _ = try MountConfig.load(path: path)
                Issue.record("\(name) was taken as a mount configuration")
            } catch {
                #expect(error.description.contains(path) && error.fix?.contains(path) == true, "\(name): \(error)")
                #expect(error.isPermanent, "\(name)")
                #expect(error.exitStatus == .usage)
            }
        }
        #expect(!MountConfigError(path: base, unreadable: EIO).isPermanent)
        #expect(MountConfigError(path: base, unreadable: EACCES).exitStatus == .noSensor)
    }

    @Test func aBadLineIsPermanentAndItsFixNamesTheFile() {
        let e = MountConfigError(path: "/home/pi/.config/imukit/mount.conf", line: 2, text: "mpu6050 = 1, 2, 3")
        #expect(e.isPermanent && e.fix?.contains("line 2 of /home/pi/.config/imukit/mount.conf") == true)
    }

    @Test func missingFileIsEmpty() throws {
        #expect(try MountConfig.load(path: "/nonexistent/imukit/mount.conf").entries.isEmpty)
    }
}
