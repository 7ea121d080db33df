import CLibIIO
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A libiio context (local: or ip:). Pointers into libiio never leave this type's methods except
/// inside `withContext` closures.
///
/// Where its calls run:
/// - `ip:` calls go through an `IIOCallGate`, which bounds each one: libiio's network backend can
///   block forever on a dropped link (the gate's comment), and a call past its bound is reported.
/// - `local:` calls run on the calling thread (the source's capture thread, or the thread a tool
///   opens sources on), because every local call is a sysfs read or write, or the buffer's refill,
///   which the kernel and libiio bound themselves: a driver's bus transfer fails after the bus
///   adapter's timeout (EIO, ETIMEDOUT), and the refill polls with the context's timeout. A hop
///   to the gate's queue for each call cost the capture thread two more wake-ups per call (the
///   queue's thread woken, the caller woken by its semaphore): three per poll of the polled
///   fallback where one is needed (docs/power.md).
final class IIOContext {
    /// Seconds a network context may take per call (libiio's own socket timeout, and the gate's
    /// bound with a margin). Measured: an attribute read through iiod in the TCG test VM takes
    /// 5–60 ms, context creation 0.3–2 s; 5 s is far beyond normal.
    static let networkTimeoutSeconds = 5.0
    /// libiio's timeout for a local buffer refill (ms in `iio_context_set_timeout`): a block that
    /// takes this long means the trigger stopped.
    static let localTimeoutSeconds = 5.0
    /// Bound for creating a context: iiod sends its whole XML description first.
    static let createTimeoutSeconds = 15.0

    let uri: String
    /// The bound on each call, for `ip:` only; nil for `local:` (calls run on the caller's thread).
    private let gate: IIOCallGate?
    private let pointer: OpaquePointer

    /// Opens the context. Throws `libraryMissing`, `noContext`, `permissionDenied` or `timedOut`.
    init(uri: String) throws {
        self.uri = uri
        // libiio is loaded here, for the first context, never at process start (CLibIIO.h).
        if let problem = clibiio_load() { throw IIOError.libraryMissing(detail: String(cString: problem)) }
        let isNetwork = uri.hasPrefix("ip:")
        let host = IIOHostLookup.host(ofURI: uri)
        let create = { () -> (OpaquePointer?, Int32, unknownHost: String?) in
            // A name the resolver does not know is said as such, without libiio's Avahi noise (`IIOHostLookup`).
            let unknown = host.flatMap(IIOHostLookup.failure)
            if let unknown, let host, !IIOHostLookup.avahiMayResolve(host) { return (nil, 0, unknown) }
            errno = 0
            let p = iio_create_context_from_uri(uri)
            return (p, errno, unknown)
        }
        let created = isNetwork ? try IIOCallGate(uri: uri, timeout: Self.createTimeoutSeconds).run("connecting", create) : create()
        guard let p = created.0 else {
            if let reason = created.unknownHost, let host { throw IIOError.unknownHost(uri: uri, host: host, reason: reason) }
            if created.1 == EACCES || created.1 == EPERM { throw IIOError.permissionDenied(uri: uri, what: "/sys/bus/iio/devices") }
            throw IIOError.noContext(uri: uri, errno: created.1 == 0 ? ENOENT : created.1)
        }
        pointer = p
        let seconds = isNetwork ? Self.networkTimeoutSeconds : Self.localTimeoutSeconds
        // The gate waits a little longer than libiio's own timeout, so libiio's ETIMEDOUT wins when it works.
        gate = isNetwork ? IIOCallGate(uri: uri, timeout: seconds + 1) : nil
        _ = iio_context_set_timeout(p, UInt32(seconds * Units.millisecondsPerSecond))
    }

    deinit {
        // A context whose gate is stuck in a call is leaked on purpose: destroying it would race that call.
        let p = pointer
        guard let gate else { return iio_context_destroy(p) }
        _ = try? gate.run("closing") { iio_context_destroy(p) }
    }

    /// Runs `body` with the raw context pointer: through the gate on `ip:`, on this thread on `local:`.
    /// On `ip:` a link errno from any call becomes `IIOError.linkLost`, whatever the call was.
    func withContext<T>(_ what: String, _ body: @escaping (OpaquePointer) throws -> T) throws -> T {
        let p = pointer
        guard let gate else { return try body(p) }
        do {
            return try gate.run(what) { try body(p) }
        } catch let IIOError.ioFailed(device, failed, code) where uri.hasPrefix("ip:") && IIOError.meansLinkDown(code) {
            throw IIOError.linkLost(uri: uri, what: "\(failed) on \(device)", errno: code)
        }
    }

    // MARK: Attribute helpers (call only inside withContext closures)

    /// Reads a device attribute; returns the text or a negative errno.
    static func readDeviceAttribute(_ dev: OpaquePointer, _ name: String) -> Result<String, Errno> {
        readText { iio_device_attr_read(dev, name, $0, $1) }
    }

    static func readChannelAttribute(_ chn: OpaquePointer, _ name: String) -> Result<String, Errno> {
        readText { iio_channel_attr_read(chn, name, $0, $1) }
    }

    /// Size of the buffer for one attribute value: sysfs attributes are at most one page, and the
    /// values read here (numbers, matrices) are far shorter.
    static let attributeBufferBytes = 4096

    private static func readText(_ read: (UnsafeMutablePointer<CChar>, Int) -> Int) -> Result<String, Errno> {
        var buffer = [CChar](repeating: 0, count: attributeBufferBytes)
        let n = buffer.withUnsafeMutableBufferPointer { read($0.baseAddress!, $0.count) }
        if n < 0 { return .failure(Errno(Int32(-n))) }
        let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return .success(text.trimmedWhitespace)
    }

    struct Errno: Error, Equatable { let code: Int32; init(_ c: Int32) { code = c } }

    static func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
}
