#if canImport(Glibc)
import Glibc
#endif

/// A failed I²C operation, with errno's meaning for this bus (Documentation/i2c/fault-codes.rst).
public struct I2CError: DiagnosableError, Equatable {
    public enum Kind: Sendable, Equatable {
        /// ENXIO / EREMOTEIO: nothing acknowledged at the address.
        case noAcknowledge
        /// ETIMEDOUT: the bus is stuck (SDA held low, clock stretching without end).
        case busStuck
        /// EACCES / EPERM: no permission to open the adapter.
        case permissionDenied
        /// ENODEV / ENOENT: the adapter is gone (unplugged, module unloaded) or never existed.
        case adapterGone
        /// EBUSY on I2C_SLAVE: a kernel driver owns the address.
        case ownedByKernel(iioDevice: String?)
        /// EIO, EAGAIN and others: a transfer failed.
        case transferFailed
        /// The adapter cannot do what the driver asked (no I2C_RDWR and no SMBus block read).
        case unsupported
        /// The chip answered with something impossible (wrong ID after identification, bad FIFO count).
        case badResponse
    }

    public var kind: Kind
    /// The adapter, e.g. "/dev/i2c-1".
    public var bus: String
    /// The 7-bit address, when the error concerns one chip.
    public var address: I2CAddress?
    /// errno, when the kernel gave one.
    public var errno: Int32?
    /// What was being done: "reading 14 bytes from 0x3B".
    public var operation: String

    public init(kind: Kind, bus: String, address: I2CAddress? = nil, errno: Int32? = nil, operation: String) {
        self.kind = kind
        self.bus = bus
        self.address = address
        self.errno = errno
        self.operation = operation
    }

    /// Maps errno from an i2c-dev call to its meaning.
    public static func from(errno code: Int32, bus: String, address: I2CAddress?, operation: String) -> I2CError {
        let kind: Kind
        switch code {
        case ENXIO, EREMOTEIO: kind = .noAcknowledge
        case ETIMEDOUT: kind = .busStuck
        case EACCES, EPERM: kind = .permissionDenied
        case ENODEV, ENOENT: kind = .adapterGone
        case EBUSY: kind = .ownedByKernel(iioDevice: nil)
        case EOPNOTSUPP, EINVAL: kind = .unsupported
        default: kind = .transferFailed
        }
        return I2CError(kind: kind, bus: bus, address: address, errno: code, operation: operation)
    }

    /// Worth retrying after a short backoff: a NACK burst, EIO, a stuck bus that may recover.
    public var isTransient: Bool {
        switch kind {
        case .noAcknowledge, .busStuck, .transferFailed: return true
        default: return false
        }
    }

    private var where_: String {
        address.map { "\(bus) @0x\(String($0, radix: 16))" } ?? bus
    }

    public var description: String {
        let reason = errno.map { " (\(String(cString: strerror($0))), errno \($0))" } ?? ""
        switch kind {
        case .noAcknowledge: return "\(where_): no chip acknowledged while \(operation)\(reason)"
        case .busStuck: return "\(where_): bus stuck (timed out) while \(operation)\(reason)"
        case .permissionDenied: return "\(bus): permission denied\(reason)"
        case .adapterGone: return "\(bus): adapter gone while \(operation)\(reason)"
        case let .ownedByKernel(dev): return "\(where_): a kernel driver owns this chip\(dev.map { " (\($0))" } ?? "")"
        case .transferFailed: return "\(where_): transfer failed while \(operation)\(reason)"
        case .unsupported: return "\(bus): adapter cannot do this transfer while \(operation)\(reason)"
        case .badResponse: return "\(where_): unexpected answer while \(operation)"
        }
    }

    public var exitStatus: ExitStatus {
        switch kind {
        case .permissionDenied, .ownedByKernel: return .noSensor
        default: return .runtimeFailure
        }
    }

    public var fix: String? {
        switch kind {
        case .permissionDenied:
            return "sudo usermod -aG i2c $USER (then log out and in); if the group or rule is missing: sudo make install-udev (udev/60-imukit.rules)"
        case let .ownedByKernel(dev):
            return "read it through the kernel instead: --source iio:local:\(dev.map { "/" + $0 } ?? "") (see imu-info)"
        case .noAcknowledge:
            return "check wiring (SDA, SCL, 3V3, GND) and the address with i2cdetect -y \(bus.split(separator: "-").last ?? "1")"
        case .busStuck:
            return "power-cycle the sensor; check pull-ups and cable length"
        case .adapterGone:
            return "is the adapter enabled? On a Raspberry Pi: sudo raspi-config nonint do_i2c 0, or dtparam=i2c_arm=on in /boot/firmware/config.txt"
        default:
            return nil
        }
    }
}
