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

    @Test func missingFileIsEmpty() throws {
        #expect(try MountConfig.load(path: "/nonexistent/imukit/mount.conf").entries.isEmpty)
    }
}
