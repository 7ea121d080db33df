#if canImport(Glibc)
import Glibc
#endif

/// Everything that can go wrong with an IIO source, each with the thing it concerns and the fix.
public enum IIOError: DiagnosableError, RetryableError, Equatable {
    /// The `--source iio:…` text is not a spec this backend understands.
    case badSpec(String, reason: String)
    /// libiio could not be loaded (libiio0 not installed, or not the 0.x ABI): `detail` is the loader's text.
    case libraryMissing(detail: String)
    /// No context at the URI (no IIO in the kernel, iiod not running, host unreachable).
    case noContext(uri: String, errno: Int32)
    /// The host of an `ip:` URI could not be looked up (`IIOHostLookup`): `reason` is its answer.
    case unknownHost(uri: String, host: String, reason: String)
    /// A libiio call did not return within the bound (a dropped link on `ip:`, libiio issue 1359).
    case timedOut(uri: String, what: String, seconds: Double)
    /// The network link to iiod broke mid-call (libiio's own timeout fired, or iiod went away).
    case linkLost(uri: String, what: String, errno: Int32)
    /// Permission denied on sysfs or /dev/iio:deviceN.
    case permissionDenied(uri: String, what: String)
    /// The context has no device by that name, or none with the channels a source needs.
    case noDevice(uri: String, name: String?, found: [String])
    /// The device went away mid-capture (driver unbound, chip unplugged, iiod lost it).
    case deviceLost(device: String, samplesDelivered: Int, waitedSeconds: Double)
    /// A read or write failed with an errno that is none of the above.
    case ioFailed(device: String, what: String, errno: Int32)
    /// A buffer delivered data whose layout does not match the scan types.
    case badScan(device: String, detail: String)

    public var exitStatus: ExitStatus {
        switch self {
        case .badSpec: .usage
        case .libraryMissing, .noContext, .unknownHost, .permissionDenied, .noDevice: .noSensor
        case .timedOut, .linkLost, .deviceLost, .ioFailed, .badScan: .runtimeFailure
        }
    }

    public var description: String {
        switch self {
        case let .badSpec(spec, reason):
            "bad IIO source '\(spec)': \(reason)"
        case let .libraryMissing(detail):
            "cannot load libiio, which IIO sources need (\(detail))"
        case let .noContext(uri, e):
            "no IIO context at \(uri) (\(IIOError.text(e)))"
        case let .unknownHost(uri, host, reason):
            "no IIO context at \(uri): cannot look up the host name '\(host)' (\(reason))"
        case let .timedOut(uri, what, seconds):
            "IIO context \(uri) did not answer within \(IIOError.seconds(seconds)) s while \(what); the link or iiod is down"
        case let .linkLost(uri, what, e):
            "IIO context \(uri) did not answer while \(what) (\(IIOError.text(e))); the link or iiod is down"
        case let .permissionDenied(uri, what):
            "permission denied on \(what) (\(uri))"
        case let .noDevice(uri, name, found):
            (name.map { "no IIO device '\($0)' at \(uri)" } ?? "no IIO accelerometer, gyroscope or barometer at \(uri)")
                + (found.isEmpty ? " (the context has no devices)" : "; devices there: \(found.joined(separator: ", "))")
        case let .deviceLost(device, n, waited):
            "IIO device \(device) was lost mid-capture after \(counted(n, "sample"))"
                + (waited > 0 ? "; it did not come back within \(IIOError.seconds(waited)) s" : "")
        case let .ioFailed(device, what, e):
            "IIO device \(device): \(what) failed: \(IIOError.text(e))"
                + (e == EIO ? " (the driver got no valid measurement from the chip)" : "")
        case let .badScan(device, detail):
            "IIO device \(device): buffer data does not match its scan types: \(detail)"
        }
    }

    public var fix: String? {
        switch self {
        case .badSpec:
            "use iio:local:, iio:ip:HOST, iio:ip:HOST:PORT or append /DEVICE[+DEVICE] (see docs/iio.md)"
        case .libraryMissing:
            "install it: sudo apt install libiio0 (the imukit package depends on it)"
        case let .noContext(uri, _):
            uri.hasPrefix("ip:")
                ? "start iiod on the board (sudo systemctl start iiod) and check the host and port"
                : "load the sensor's kernel driver (see imu-info) or name a remote board with --source iio:ip:HOST"
        case let .unknownHost(_, host, _):
            IIOHostLookup.isMulticastName(host)
                ? "a .local name needs multicast DNS: start avahi-daemon (sudo systemctl start avahi-daemon), or give the board's address, e.g. iio:ip:192.168.1.20"
                : "check the board's name and that this machine's DNS answers, or give the board's address, e.g. iio:ip:192.168.1.20"
        case .timedOut, .linkLost:
            "check the network link and that iiod still runs on the board, then start again"
        case .permissionDenied:
            "sudo usermod -aG iio $USER (then log out and in); if the group or rule is missing: sudo make install-udev (udev/60-imukit.rules)"
        case .noDevice:
            "list the devices with imu-info --source iio:… and name one, e.g. iio:local:/mpu6050"
        case .deviceLost:
            "check that the driver is still bound (ls /sys/bus/iio/devices); append ?resume=SECONDS to the source to wait for it to return"
        case let .ioFailed(_, _, e):
            e == EIO ? "check the chip's power and wiring; run imu-info to see whether the driver still answers" : nil
        case .badScan:
            "report this with the output of iio_info for the device"
        }
    }

    /// Permanent (`RetryableError`): a spec that does not parse, libiio not installed. Transient:
    /// permission denied (udev gives a device bound again to group iio milliseconds after it
    /// appears, and `make install-udev` mends it for a running daemon), no context (iiod not running yet, IIO drivers not loaded yet), a host name not known (the
    /// network or its DNS not up yet at boot), no such
    /// device (a driver unbound, or not bound yet: it is found by name when it returns), a device
    /// lost mid-capture, a timeout, a broken link, a failed read (EIO), and a scan mismatch: the
    /// layout is read anew at each open, and a driver bound again (a module updated) may give
    /// another; a retry costs one open at most every 30 s.
    public var isPermanent: Bool {
        switch self {
        case .badSpec, .libraryMissing: true
        case .permissionDenied, .noContext, .unknownHost, .timedOut, .linkLost, .noDevice, .deviceLost, .ioFailed, .badScan: false
        }
    }

    static func text(_ e: Int32) -> String { String(cString: strerror(e)) + " (errno \(e))" }
    static func seconds(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(s) }

    /// Errnos that mean the device is gone, not that one read failed.
    static func meansDeviceGone(_ e: Int32) -> Bool { e == ENODEV || e == ENOENT || e == ENXIO }

    /// Errnos that, on an `ip:` context, mean the link to iiod broke: libiio reports its socket
    /// timeout as ETIMEDOUT and a closed connection as EPIPE or ECONNRESET.
    static func meansLinkDown(_ e: Int32) -> Bool {
        e == ETIMEDOUT || e == EPIPE || e == ECONNRESET || e == ENOTCONN || e == EHOSTUNREACH || e == ECONNABORTED
    }
}
