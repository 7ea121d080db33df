import Foundation
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
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains(pemCertificate) else {
            return ("\(path.escapedForTerminal) holds no PEM certificate (no \(pemCertificate) line)", 0)
        }
        // A block whose body is no certificate passed, and OpenSSL refused the whole file at the
        // first TLS handshake, logged as "the broker's certificate was rejected (… PEM lib)" with
        // the fix to check who signed it.
        if let (line, problem) = damagedBlock(text) {
            return ("\(path.escapedForTerminal): the certificate that begins on line \(line) \(problem)", 0)
        }
        return nil
    }

    /// What PEM's end line is (RFC 7468, section 5.1).
    static let pemEnd = "-----END CERTIFICATE-----"

    /// The first certificate block of `text` that OpenSSL cannot load: the line of its BEGIN and
    /// what is wrong (its body is not base64 of a DER SEQUENCE, which every X.509 certificate is,
    /// RFC 5280 section 4.1; or it has no END line); nil when every block is whole.
    static func damagedBlock(_ text: String) -> (line: Int, problem: String)? {
        var body: String?
        var begin = 0
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line == pemCertificate {
                if body != nil { return (begin, "has no \(pemEnd) line before the next certificate") }
                body = ""
                begin = index + 1
            } else if line == pemEnd, let base64 = body {
                // 0x30: a DER SEQUENCE's tag (X.690 section 8.9); a certificate is hundreds of bytes.
                guard let der = Data(base64Encoded: base64), der.count > 2, der.first == 0x30 else {
                    return (begin, "is damaged: its body is not the base64 of a certificate")
                }
                body = nil
            } else if body != nil {
                body! += line
            }
        }
        return body == nil ? nil : (begin, "has no \(pemEnd) line: the file is cut short")
    }
}
