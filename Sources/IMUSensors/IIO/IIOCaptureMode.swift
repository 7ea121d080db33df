/// How a set of sensors will be captured, and why: `imu-info` shows both.
public struct IIOCaptureMode: Sendable, Equatable {
    public enum Kind: String, Sendable { case buffered, polled }
    public var kind: Kind
    /// The reason in a few words ("no trigger", "trigger imukit-tick", …).
    public var reason: String
    /// The trigger a buffered capture attaches, when the device has none of its own.
    public var attachTrigger: String?

    /// Buffered only when the whole IMU is one scan-capable device with a trigger (its own, or
    /// the one named by `?trigger=`); polled otherwise.
    public static func choose(_ set: IIOSensorSet, devices: [IIODeviceDescription], spec: IIOSourceSpec) -> IIOCaptureMode {
        guard let imu = set.accelerometer ?? set.gyroscope else { return .init(kind: .polled, reason: "no IMU (barometer only)") }
        if spec.forcePolled { return .init(kind: .polled, reason: "mode=polled requested") }
        guard let d = devices.first(where: { $0.id == imu.deviceID }), d.bufferCapable else {
            return .init(kind: .polled, reason: "no buffer (driver has no IRQ or no buffer support)")
        }
        if let g = set.gyroscope, let a = set.accelerometer, g.deviceID != a.deviceID {
            return .init(kind: .polled, reason: "accelerometer and gyroscope are separate devices")
        }
        guard set.accelerometer?.scanCapable ?? true, set.gyroscope?.scanCapable ?? true else {
            return .init(kind: .polled, reason: "IMU channels are not scan elements")
        }
        if let t = d.currentTrigger { return .init(kind: .buffered, reason: "trigger \(t)") }
        if let t = spec.trigger {
            guard devices.contains(where: { $0.isTrigger && $0.name == t }) else {
                return .init(kind: .polled, reason: "trigger \(t) not found")
            }
            return .init(kind: .buffered, reason: "trigger \(t) (attached)", attachTrigger: t)
        }
        return .init(kind: .polled, reason: "no trigger (name one with ?trigger=NAME)")
    }
}
