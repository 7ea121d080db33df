/// A 3×3 matrix stored by rows, enough linear algebra for the misalignment fit and its inverse.
public struct Matrix3: Sendable, Equatable {
    public var rows: (Vector3, Vector3, Vector3)

    public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) { rows = (r0, r1, r2) }

    /// Builds a matrix from its three columns.
    public init(columns c0: Vector3, _ c1: Vector3, _ c2: Vector3) {
        rows = (Vector3(c0.x, c1.x, c2.x), Vector3(c0.y, c1.y, c2.y), Vector3(c0.z, c1.z, c2.z))
    }

    /// From nested arrays, rows first; nil unless exactly 3×3 finite numbers.
    public init?(_ array: [[Double]]) {
        guard array.count == 3, array.allSatisfy({ $0.count == 3 && $0.allSatisfy(\.isFinite) }) else { return nil }
        rows = (Vector3(array[0][0], array[0][1], array[0][2]),
                Vector3(array[1][0], array[1][1], array[1][2]),
                Vector3(array[2][0], array[2][1], array[2][2]))
    }

    public static let identity = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    public var array: [[Double]] { [rows.0, rows.1, rows.2].map { [$0.x, $0.y, $0.z] } }

    public subscript(row: Int, column: Int) -> Double {
        switch row {
        case 0: return rows.0[column]
        case 1: return rows.1[column]
        default: return rows.2[column]
        }
    }

    @inlinable public func apply(_ v: Vector3) -> Vector3 {
        Vector3((rows.0 * v).sum(), (rows.1 * v).sum(), (rows.2 * v).sum())
    }

    /// The inverse by cofactors; nil when (nearly) singular.
    public var inverse: Matrix3? {
        let c0 = Self.cross(rows.1, rows.2), c1 = Self.cross(rows.2, rows.0), c2 = Self.cross(rows.0, rows.1)
        let det = (rows.0 * c0).sum()
        // 1e-9: far below any plausible misalignment determinant (≈1 for a real sensor).
        guard det.isFinite, abs(det) > 1e-9 else { return nil }
        // The cofactor vectors are the inverse's columns, scaled by 1/det.
        return Matrix3(columns: c0 / det, c1 / det, c2 / det)
    }

    /// Largest absolute off-diagonal element: how far from "no cross-axis coupling".
    public var largestOffDiagonal: Double {
        var m = 0.0
        for r in 0..<3 { for c in 0..<3 where r != c { m = max(m, abs(self[r, c])) } }
        return m
    }

    public static func == (a: Matrix3, b: Matrix3) -> Bool {
        a.rows.0 == b.rows.0 && a.rows.1 == b.rows.1 && a.rows.2 == b.rows.2
    }

    @inlinable static func cross(_ a: Vector3, _ b: Vector3) -> Vector3 {
        Vector3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}
