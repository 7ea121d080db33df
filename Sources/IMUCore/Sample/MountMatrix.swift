/// Maps a chip's own axes to the device frame (docs/CONTRACTS.md §1): `device = M · chip`.
///
/// The text form is the kernel's (`Documentation/ABI/testing/sysfs-bus-iio`, `in_mount_matrix`):
/// three rows separated by `;`, each with three comma-separated numbers, e.g.
/// `"0, 1, 0; -1, 0, 0; 0, 0, 1"`.
public struct MountMatrix: Sendable, Equatable, CustomStringConvertible {
    /// Rows of the matrix.
    public var rows: (Vector3, Vector3, Vector3)

    public static let identity = MountMatrix(rows: (Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)))

    public init(rows: (Vector3, Vector3, Vector3)) { self.rows = rows }

    /// Parses the kernel's text form; nil when it is not nine finite numbers in three rows.
    public init?(kernelText text: String) {
        let rowTexts = text.split(separator: ";")
        guard rowTexts.count == 3 else { return nil }
        var parsed: [Vector3] = []
        for r in rowTexts {
            let values = r.split(separator: ",").compactMap { DecimalParser.parse(String($0).trimmingSpaces()) }
            guard values.count == 3 else { return nil }
            parsed.append(Vector3(values[0], values[1], values[2]))
        }
        rows = (parsed[0], parsed[1], parsed[2])
    }

    @inlinable public func apply(_ v: Vector3) -> Vector3 {
        Vector3((rows.0 * v).sum(), (rows.1 * v).sum(), (rows.2 * v).sum())
    }

    /// True when the rows are unit vectors at right angles (a rotation or a reflection), as the
    /// kernel's ABI describes a mount matrix. A zero or scaled matrix would scale gravity away and
    /// count no steps without a word, so a matrix a user writes must pass this.
    ///
    /// Tolerance 0.01 on each row's length and on each pair's dot product: device trees write
    /// 45° as "0.7071" (error 1e-5), and 0.01 is 0.6° of skew, far below what any wrong matrix is.
    public var isRotation: Bool {
        let r = [rows.0, rows.1, rows.2]
        let tolerance = 0.01
        for i in 0..<3 {
            guard abs((r[i] * r[i]).sum() - 1) <= tolerance else { return false }
            for j in (i + 1)..<3 where abs((r[i] * r[j]).sum()) > tolerance { return false }
        }
        return true
    }

    public static func == (a: MountMatrix, b: MountMatrix) -> Bool {
        a.rows.0 == b.rows.0 && a.rows.1 == b.rows.1 && a.rows.2 == b.rows.2
    }

    public var description: String {
        func row(_ v: Vector3) -> String { "\(fmt(v.x)), \(fmt(v.y)), \(fmt(v.z))" }
        // Range-checked before Int(_:): a matrix read from sysfs or a config may hold 1e300.
        func fmt(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }
        return "\(row(rows.0)); \(row(rows.1)); \(row(rows.2))"
    }
}
