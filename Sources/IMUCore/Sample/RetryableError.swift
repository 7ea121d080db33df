/// An error that says whether opening or reading its source again can succeed, for code that keeps
/// a source open over hours (imu-stepd's `SensorSupervisor`, which reopens a lost source with
/// backoff: docs/service.md, Bad things).
///
/// The rule: an error is **permanent** when trying again would fail the same way until a person
/// changes something (a line of a file, a permission, the configuration, the chip on the bus),
/// or when trying again would do harm (a recording replayed again counts the steps before its bad
/// line again). Everything else is **transient**: a device that is unplugged, unbound or not there
/// yet may come back, and a NACK, EIO, a stuck bus or a timeout may clear. An error type that does
/// not conform counts as transient: a retry costs one open at most every 30 s.
///
/// This is not the per-transfer retry of an I²C register read (`I2CError.isTransient`, a few
/// milliseconds apart): an adapter that is gone is not worth a second transfer, but is worth
/// reopening once it is plugged in again.
public protocol RetryableError: Error {
    /// True when trying again cannot help until a person acts (see the rule above).
    var isPermanent: Bool { get }
}
