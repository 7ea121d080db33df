import IMUCore
#if canImport(Glibc)
import Glibc
#endif

/// The `mqtt_ca_file` of an `mqtts://` broker: checked when the config is read (and again when
/// the publisher starts), not first at the TLS handshake, where `/dev/zero` or a text file was a
/// log line about a broker that could not be reached.
public enum MQTTCAFile {
    /// Largest file read, bytes: Debian's whole bundle (/etc/ssl/certs/ca-certificates.crt) is
    /// about 210 KiB; 4 MiB leaves room for any bundle and stops at a device such as /dev/zero.
    static let sizeLimit = 4 << 20
    /// What a PEM certificate starts with (RFC 7468, section 5.1).
    static let pemCertificate = "-----BEGIN CERTIFICATE-----"

    public static let fix = "point mqtt_ca_file at the PEM file of the CA that signed the broker's certificate "
        + "(it holds \(pemCertificate)), e.g. /etc/ssl/certs/ca-certificates.crt for a publicly signed broker"

    /// Why `path` is no usable CA file, with the errno when it could not be read (permission
    /// denied exits 3); nil when it holds a PEM certificate.
    public static func problem(_ path: String) -> (message: String, errorNumber: Int32)? {
        let bytes: [UInt8]
        do { bytes = try SmallFile.read(path, limit: sizeLimit) } catch {
            switch error {
            case .system(EISDIR): return ("\(path.escapedForTerminal) is a directory, not a CA file", 0)
            case .notARegularFile(let kind): return ("\(path.escapedForTerminal) is \(kind), not a CA file", 0)
            case .system(let e): return ("\(path.escapedForTerminal) cannot be read: \(String(cString: strerror(e)))", e)
            case .tooLarge(let limit): return ("\(path.escapedForTerminal) is larger than \(limit / (1 << 20)) MiB: not a CA file", 0)
            }
        }
        guard String(decoding: bytes, as: UTF8.self).contains(pemCertificate) else {
            return ("\(path.escapedForTerminal) holds no PEM certificate (no \(pemCertificate) line)", 0)
        }
        return nil
    }
}
