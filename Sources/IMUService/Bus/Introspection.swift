import Foundation
import IMUServiceClient

/// The interface as served by Introspect. data/io.github.imukit.StepService1.xml is the same text
/// (a test compares them); times are microseconds since 1970 UTC, distances metres.
enum Introspection {
    /// Methods as written here; properties from `ServiceStatus.propertySignatures`, the table the
    /// Get/GetAll answers also come from, so the two cannot drift apart.
    static let interfaceXML = methodsXML.replacingOccurrences(of: "  </interface>", with: propertiesXML + "  </interface>")

    private static var propertiesXML: String {
        ServiceStatus.propertySignatures.map { "    <property name=\"\($0.name)\" type=\"\($0.signature)\" access=\"read\"/>\n" }.joined()
    }

    private static let methodsXML = """
      <interface name="io.github.imukit.StepService1">
        <method name="QueryTotals">
          <arg name="from_usec" type="x" direction="in"/>
          <arg name="to_usec" type="x" direction="in"/>
          <arg name="totals" type="(xxxdxxd)" direction="out"/>
        </method>
        <method name="QueryDays">
          <arg name="from_usec" type="x" direction="in"/>
          <arg name="to_usec" type="x" direction="in"/>
          <arg name="time_zone" type="s" direction="in"/>
          <arg name="days" type="a(xxxdxxd)" direction="out"/>
        </method>
        <method name="QueryIntervals">
          <arg name="bounds_usec" type="ax" direction="in"/>
          <arg name="totals" type="a(xxxdxxd)" direction="out"/>
        </method>
        <method name="QueryActivities">
          <arg name="from_usec" type="x" direction="in"/>
          <arg name="to_usec" type="x" direction="in"/>
          <arg name="segments" type="a(xxss)" direction="out"/>
        </method>
        <method name="Pause"/>
        <method name="Resume"/>
        <method name="Reset"/>
      </interface>
    """

    static let standardInterfaces = """
      <interface name="org.freedesktop.DBus.Introspectable">
        <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
      </interface>
      <interface name="org.freedesktop.DBus.Peer">
        <method name="Ping"/>
        <method name="GetMachineId"><arg name="machine_uuid" type="s" direction="out"/></method>
      </interface>
      <interface name="org.freedesktop.DBus.Properties">
        <method name="Get">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="property_name" type="s" direction="in"/>
          <arg name="value" type="v" direction="out"/>
        </method>
        <method name="GetAll">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="props" type="a{sv}" direction="out"/>
        </method>
        <method name="Set">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="property_name" type="s" direction="in"/>
          <arg name="value" type="v" direction="in"/>
        </method>
        <signal name="PropertiesChanged">
          <arg name="interface_name" type="s"/>
          <arg name="changed_properties" type="a{sv}"/>
          <arg name="invalidated_properties" type="as"/>
        </signal>
      </interface>
    """

    static let header = """
    <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
    """

    /// The document for the object path.
    static var document: String { header + "\n<node>\n" + interfaceXML + "\n" + standardInterfaces + "\n</node>\n" }
}
