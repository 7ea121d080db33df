import Testing
@testable import IMUSensors

@Suite struct IIOSourceSpecTests {
    @Test func parsesContextsDevicesAndOptions() throws {
        #expect(try IIOSourceSpec(parsing: "") == IIOSourceSpec())
        #expect(try IIOSourceSpec(parsing: "local:").uri == "local:")
        #expect(try IIOSourceSpec(parsing: "ip:pinephone.local").uri == "ip:pinephone.local")
        let s = try IIOSourceSpec(parsing: "ip:127.0.0.1:30431/mpu6050+bmp280?resume=30&trigger=imukit-tick")
        #expect(s == IIOSourceSpec(uri: "ip:127.0.0.1:30431", devices: ["mpu6050", "bmp280"], resumeSeconds: 30, trigger: "imukit-tick"))
        #expect(try IIOSourceSpec(parsing: "local:/bmi160?mode=polled").forcePolled)
        #expect(try IIOSourceSpec(parsing: "ip:fe80::1").uri == "ip:fe80::1")  // IPv6: several colons, no port
    }

    @Test(arguments: ["usb:1.2.3", "ip:", "ip:host:0", "ip:host:99999", "ip:host:abc", "ip::30431", "local:/",
                      "local:?resume=-1", "local:?resume=x", "local:?bogus=1", "local:?resume", "local:?mode=fast"])
    func rejectsBadSpecsAsUsageErrors(_ text: String) {
        #expect {
            _ = try IIOSourceSpec(parsing: text)
        } throws: { error in
            guard let e = error as? IIOError, case .badSpec = e else { return false }
            return e.exitStatus == .usage && e.fix != nil
        }
    }

    @Test func errorsNameTheFix() {
        let denied = IIOError.permissionDenied(uri: "local:", what: "/dev/iio:device2")
        #expect(denied.exitStatus == .noSensor)
        #expect(denied.fix?.contains("usermod -aG iio") == true)
        #expect(denied.fix?.contains("60-imukit.rules") == true)
        let hung = IIOError.timedOut(uri: "ip:10.0.0.2", what: "reading mpu6050", seconds: 6)
        #expect(hung.exitStatus == .runtimeFailure)
        #expect(hung.description.contains("did not answer within 6 s"))
        let lost = IIOError.deviceLost(device: "mpu6050", samplesDelivered: 1234, waitedSeconds: 0)
        #expect(lost.exitStatus == .runtimeFailure && lost.description.contains("1234 samples"))
        #expect(lost.fix?.contains("resume=") == true)
    }
}
