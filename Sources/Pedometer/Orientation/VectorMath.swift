#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

@inline(__always) func dot(_ a: Vector3, _ b: Vector3) -> Double { (a * b).sum() }

@inline(__always) func length(_ a: Vector3) -> Double { dot(a, a).squareRoot() }

/// The C library's cosine under a name that a local `cos` cannot shadow.
@inline(__always) func _cos(_ x: Double) -> Double { cos(x) }
