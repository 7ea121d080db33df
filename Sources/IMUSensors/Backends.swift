/// Every sensor backend, in the order tools try them when no `--source` is given.
/// The IIO backend (kernel drivers through libiio) and the simulation backend are added to this
/// list by their own issues when the branches are merged: `[I2CBackend(), IIOBackend(), …]`.
public enum Backends {
    public static var all: [any SensorBackend] { [I2CBackend()] }
}
