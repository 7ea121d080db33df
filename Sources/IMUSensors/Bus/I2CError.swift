#if canImport(Glibc)
import Glibc
#endif

/// A failed I²C operation, with errno's meaning for an I²C adapter (Documentation/i2c/fault-codes.rst).
public struct I2CError: DiagnosableError, RetryableError, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// ENXIO / EREMOTEIO: nothing acknowledged the address (absent chip, wrong address, wiring).
        case noAcknowledge = "no ACK"
        /// ETIMEDOUT / EAGAIN: the bus is stuck (SDA held low, clock stretching without end).
        case busStuck = "bus stuck"
        /// EACCES / EPERM: the user may not open /dev/i2c-N.
        case permissionDenied = "permission denied"
        /// ENODEV: the adapter is gone (module unloaded, USB adapter unplugged).
        case adapterGone = "adapter gone"
        /// ENOENT on open: there is no such /dev/i2c-N.
        case noSuchAdapter = "no such I²C adapter"
        /// EBUSY on I2C_SLAVE: a kernel driver owns the address.
        case ownedByKernel = "owned by a kernel driver"
        /// EIO or anything else: a bus-level failure (arbitration lost, protocol error).
        case io = "I/O error"
        /// EOPNOTSUPP: the adapter cannot do the transfer asked for.
        case unsupported = "unsupported transfer"
        /// The chip answered, but with values no working chip gives (blank calibration, a pressure
        /// outside the sensor's range, measurements that stay "skipped").
        case badResponse = "impossible data"
    }

    public var kind: Kind
    /// The adapter, e.g. "/dev/i2c-1".
    public var bus: String
    /// The 7-bit address, nil for adapter-level failures.
    public var address: UInt8?
    /// What was being done, e.g. "read 14 bytes from 0x3b".
    public var operation: String
    /// The raw errno (positive), 0 when the error was not from a system call.
    public var errno: Int32
    /// For `.ownedByKernel`: the kernel driver and the IIO device to use instead, when found in sysfs.
    public var kernelDriver: String?
    public var iioDevice: String?

    public init(kind: Kind, bus: String, address: UInt8?, operation: String, errno: Int32 = 0,
                kernelDriver: String? = nil, iioDevice: String? = nil) {
        self.kind = kind
        self.bus = bus
        self.address = address
        self.operation = operation
        self.errno = errno
        self.kernelDriver = kernelDriver
        self.iioDevice = iioDevice
    }

    /// Maps a (positive) errno from i2c-dev to its meaning.
    public static func kind(forErrno e: Int32) -> Kind {
        switch e {
        case ENXIO, EREMOTEIO: return .noAcknowledge
        case ETIMEDOUT, EAGAIN: return .busStuck
        case EACCES, EPERM: return .permissionDenied
        case ENODEV: return .adapterGone
        case ENOENT: return .noSuchAdapter
        case EBUSY: return .ownedByKernel
        case EOPNOTSUPP, EINVAL: return .unsupported
        default: return .io
        }
    }

    public init(errno e: Int32, bus: String, address: UInt8?, operation: String) {
        self.init(kind: I2CError.kind(forErrno: e), bus: bus, address: address, operation: operation, errno: e)
    }

    /// Worth retrying the transfer at once (`RetryPolicy`, milliseconds apart): a NACK burst (chip
    /// busy, e.g. during reset), a stuck bus that may clear, EIO.
    public var isTransient: Bool {
        switch kind {
        case .noAcknowledge, .busStuck, .io: return true
        case .permissionDenied, .adapterGone, .noSuchAdapter, .ownedByKernel, .unsupported, .badResponse: return false
        }
    }

    /// Not worth reopening the source later (`RetryableError`, seconds apart): a kernel driver
    /// that owns the address, a transfer the adapter cannot do. An adapter that is gone or missing
    /// (a USB adapter unplugged, i2c-dev not loaded yet) may come back, and so may a chip that
    /// NACKs, holds the bus or gives impossible data (power, wiring, a reset). Permission denied
    /// may mend without a person at the service: udev gives an adapter that appears to group i2c
    /// only milliseconds after it appears, and `make install-udev` mends it for a running daemon.
    public var isPermanent: Bool {
        switch kind {
        case .ownedByKernel, .unsupported: return true
        case .permissionDenied, .noAcknowledge, .busStuck, .io, .adapterGone, .noSuchAdapter, .badResponse: return false
        }
    }

    var where_: String { address.map { "\(bus) @\(I2CAddress.hex($0))" } ?? bus }

    public var description: String {
        var text = "\(where_): \(kind.rawValue) (\(operation)"
        if errno != 0 { text += ", errno \(errno) \(String(cString: strerror(errno)))" }
        text += ")"
        if kind == .ownedByKernel {
            let owner = kernelDriver.map { "kernel driver \($0)" } ?? "a kernel driver"
            text = "\(owner) owns \(I2CAddress.hex(address ?? 0)) on \(bus)"
            if let iio = iioDevice { text += ": use the IIO device \(iio) instead" }
        }
        return text
    }

    public var exitStatus: ExitStatus {
        switch kind {
        case .permissionDenied, .ownedByKernel, .noSuchAdapter: return .noSensor
        default: return .runtimeFailure
        }
    }

    public var fix: String? {
        switch kind {
        case .permissionDenied: return I2CFixes.permission
        case .noAcknowledge: return "check wiring (SDA, SCL, 3.3 V, GND) and the address (i2cdetect -y \(I2CAddress.busNumber(bus) ?? 1))"
        case .busStuck: return "a device holds the bus: power-cycle the sensor, check pull-up resistors and cable length"
        case .noSuchAdapter: return "list adapters with imu-info or i2cdetect -l; load i2c-dev: sudo modprobe i2c-dev; on a Raspberry Pi: " + I2CFixes.enableI2C
        case .adapterGone: return "load the adapter: sudo modprobe i2c-dev; on a Raspberry Pi: " + I2CFixes.enableI2C
        case .ownedByKernel: return I2CFixes.readThroughIIO(iioDevice)
        case .io: return "check wiring and power; lower the bus speed (dtparam=i2c_arm_baudrate=100000) on long cables"
        case .unsupported: return nil
        case .badResponse: return "power-cycle the sensor and check its supply (3.3 V) and wiring; a chip that keeps doing this may be a counterfeit or damaged part"
        }
    }
}

/// The exact fixes `imu-info` and the errors print.
public enum I2CFixes {
    /// EACCES on /dev/i2c-N: group membership or this project's udev rule (udev/60-imukit.rules).
    public static let permission = "sudo usermod -aG i2c $USER (log out and in), or install udev/60-imukit.rules: sudo make install-udev"
    /// Enabling the I²C controller on Raspberry Pi OS.
    public static let enableI2C = "sudo raspi-config nonint do_i2c 0 (or dtparam=i2c_arm=on in /boot/firmware/config.txt, then reboot)"
    /// For a kernel-owned chip: the `--source` that reads it through IIO, from sysfs's description
    /// "iio:device4 (lsm6ds3_gyro), iio:device5 (lsm6ds3_accel)" → `iio:local:/lsm6ds3` (the pair's stem).
    public static func readThroughIIO(_ iioDescription: String?) -> String {
        guard let text = iioDescription, let open = text.firstIndex(of: "("), let close = text.firstIndex(of: ")"), open < close else {
            return "read it through IIO (imu-info lists IIO devices; --source iio:local:/NAME)"
        }
        var name = String(text[text.index(after: open)..<close])
        for suffix in ["_accel", "_gyro"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        return "read it through IIO: --source iio:local:/\(name)"
    }

    /// An adapter with nothing answering at any known address.
    public static let emptyBus = "check wiring (SDA, SCL, 3.3 V, GND) and that the sensor is powered; if no adapter exists, enable I²C: " + enableI2C
}

/// Address formatting and bus-path helpers.
public enum I2CAddress {
    /// "0x68" (lower-case hex, two digits, as i2cdetect prints).
    public static func hex(_ value: UInt8) -> String {
        let s = String(value, radix: 16)
        return "0x" + (s.count < 2 ? "0" + s : s)
    }
    /// 1 for "/dev/i2c-1".
    public static func busNumber(_ path: String) -> Int? {
        guard let dash = path.lastIndex(of: "-") else { return nil }
        return Int(path[path.index(after: dash)...])
    }
}
