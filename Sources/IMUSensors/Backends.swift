/// Every hardware backend, in the order tools try them when no `--source` is given: I²C chips
/// that no kernel driver owns first, then kernel IIO devices (local libiio context). The
/// simulator is never auto-discovered as hardware; tools fall back to it explicitly.
public enum Backends {
    public static var all: [any SensorBackend] { [I2CBackend(), IIOBackend()] }
}
