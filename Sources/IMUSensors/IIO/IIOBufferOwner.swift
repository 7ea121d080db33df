import CLibIIO
#if canImport(Glibc)
import Glibc
#endif

/// Whether another reader holds an IIO device's buffer: iio-sensor-proxy does on a phone while
/// screen rotation is on. Asked before a buffered capture touches the device, because libiio's
/// local backend writes `buffer/enable = 0` before it opens `/dev/iio:deviceN` (and only then
/// fails with EBUSY): trying to take a held buffer would stop the other reader's capture.
///
/// Held means `/sys/bus/iio/devices/DEV/buffer/enable` reads 1 and `/dev/DEV` cannot be opened
/// (the kernel lets one file hold it: EBUSY). A buffer left enabled by a reader that died
/// (kill -9 leaves it so) opens fine and is taken over. Only a local context can tell: libiio
/// does not pass `buffer/enable` through iiod, and iiod's own open disables the buffer first, so
/// an `ip:` source cannot share a board's buffer (docs/service.md, Limits).
enum IIOBufferOwner {
    /// Whether the buffer of device `id` ("iio:device3") is held; nil when the context is not local.
    static func heldByAnotherReader(id: String, uri: String) -> Bool? {
        guard uri == "local:" else { return nil }
        guard enabled(id: id) else { return false }
        let fd = open("/dev/" + id, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if fd >= 0 {
            close(fd)
            return false
        }
        return errno == EBUSY
    }

    /// Whether `/sys/bus/iio/devices/DEV/buffer/enable` reads 1 (a buffer runs, whoever started it;
    /// false when there is no buffer). One open and read of a sysfs file: cheap enough for a
    /// once-a-second probe.
    static func enabled(id: String) -> Bool {
        let enable = open("/sys/bus/iio/devices/\(id)/buffer/enable", O_RDONLY | O_CLOEXEC)
        guard enable >= 0 else { return false }
        var byte: UInt8 = 0
        let n = read(enable, &byte, 1)
        close(enable)
        return n == 1 && byte == UInt8(ascii: "1")
    }

    /// The error a held buffer gives: EBUSY, which `imu-stepd` answers by polling meanwhile.
    static func busy(_ device: String) -> IIOError {
        .ioFailed(device: device, what: "enabling the buffer (another reader holds it, e.g. iio-sensor-proxy)", errno: EBUSY)
    }
}

extension IIOSource {
    /// Whether another reader holds the buffer of local IIO device `deviceID` ("iio:device3",
    /// from `localIMUDeviceID`). Read-only, so it can run beside a polled capture of the same
    /// device (`imu-stepd` asks it to know when to go back to buffered capture).
    public static func bufferHeldByAnotherReader(deviceID: String) -> Bool {
        IIOBufferOwner.heldByAnotherReader(id: deviceID, uri: "local:") ?? false
    }

    /// The sysfs id ("iio:device3") of the IMU device `spec` captures, on a local context; nil
    /// otherwise (an `ip:` context, or no IMU). For `bufferRunning(deviceID:)`.
    public static func localIMUDeviceID(spec: IIOSourceSpec) throws -> String? {
        guard spec.uri == "local:" else { return nil }
        let context = try IIOContext(uri: spec.uri)
        let set = IIODiscovery.select(from: try context.describe(), names: spec.devices)
        return (set.accelerometer ?? set.gyroscope)?.deviceID
    }

    /// Whether the buffer of local IIO device `deviceID` runs, whoever enabled it. inv_mpu6050 and
    /// st_sensors refuse raw reads (EBUSY, `iio_device_claim_direct_mode`) exactly while it does.
    public static func bufferRunning(deviceID: String) -> Bool { IIOBufferOwner.enabled(id: deviceID) }
}
