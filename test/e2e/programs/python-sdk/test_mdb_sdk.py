"""The Python SDK of the plugin mdb, generated from the shipped schema, under Pulumi's mocks.

Run with the SDK and `pulumi` installed: `python -m unittest -v test_mdb_sdk`. The mock monitor
stands in for the engine: it records each registration and, as the engine does, keeps secret
the outputs a resource names in `additionalSecretOutputs`.
"""

import unittest

import pulumi
from pulumi.runtime.mocks import MockMonitor

# A secret as the engine sends it (Pulumi's wire form of property values).
SIG, SECRET = "4dabf18193072939515e22adb298388d", "1b47061264138c4ac30d75fd1eb44270"

registrations = {}
invokes = []


class Engine(MockMonitor):
    """Records each RegisterResource request by resource name."""

    def RegisterResource(self, request):
        registrations[request.name] = request
        return super().RegisterResource(request)


class Mocks(pulumi.runtime.Mocks):
    """A service the API made: its inputs back, with the outputs the plugin adds."""

    def new_resource(self, args):
        state = dict(args.inputs)
        if args.typ == "mdb:index:Service":
            state.update(
                serviceId="svc-0a1b2c3d",
                status="READY",
                initialPassword="initial-Pw-6120",
                connectionUri="postgres://tsdbadmin:pw@svc-0a1b2c3d.example:5432/tsdb",
                endpoint={"host": "svc-0a1b2c3d.example", "port": 5432},
            )
        for key in registrations[args.name].additionalSecretOutputs:
            if key in state:
                state[key] = {SIG: SECRET, "value": state[key]}
        return [f"{args.name}-id", state]

    def call(self, args):
        invokes.append((args.token, dict(args.args)))
        result = {"serviceId": args.args.get("serviceId"), "name": "orders-db", "status": "READY"}
        if args.args.get("serviceId") == "svc-dedicated":
            result.update(cpuMillis=1000, memoryGbs=4)
        if args.args.get("serviceId") == "svc-shared":
            result.update(cpuMillis=0, memoryGbs=0)
        return result


mocks = Mocks()
pulumi.runtime.set_mocks(mocks, monitor=Engine(mocks), preview=False)
pulumi.runtime.set_all_config({"mdb:apiUrl": "http://127.0.0.1:8080/public/api/v1"})

import pulumi_mdb as mdb  # noqa: E402  (after the mocks, as Pulumi's testing guide does)


def settled(output):
    """The value of an Output, and whether it is secret."""
    return pulumi.Output.all(output, output.is_secret()).apply(lambda pair: tuple(pair))


class ServiceTest(unittest.TestCase):
    @pulumi.runtime.test
    def test_args_reach_the_engine_in_the_schema_names(self):
        db = mdb.Service(
            "orders",
            service_type=mdb.ServiceType.POSTGRES,
            region_code="us-east-1",
            cpu_millis=2000,
            memory_gbs=8,
            connection_pooler=True,
            password="orders-Db-Password-77",
        )

        def check(_):
            request = registrations["orders"]
            self.assertEqual(request.type, "mdb:index:Service")
            self.assertTrue(request.custom)
            fields = dict(request.object.fields)
            self.assertEqual(fields["serviceType"].string_value, "POSTGRES")
            self.assertEqual(fields["cpuMillis"].number_value, 2000)
            self.assertEqual(fields["memoryGbs"].number_value, 8)
            self.assertTrue(fields["connectionPooler"].bool_value)
            self.assertEqual(
                sorted(request.replaceOnChanges), ["forkFrom", "projectId", "regionCode", "serviceType"]
            )
            self.assertIn("connectionUri", request.additionalSecretOutputs)

        return db.urn.apply(check)

    @pulumi.runtime.test
    def test_outputs_and_secrets(self):
        db = mdb.Service(
            "reports",
            service_type="POSTGRES",
            region_code="us-east-1",
            cpu_millis=1000,
            memory_gbs=4,
            password="reports-Db-Password-5",
        )

        def check(values):
            (service_id, id_secret), (cpu, _), (uri, uri_secret), (password, pw_secret), (endpoint, _) = values
            self.assertEqual(service_id, "svc-0a1b2c3d")
            self.assertFalse(id_secret)
            self.assertEqual(cpu, 1000)
            self.assertTrue(uri.startswith("postgres://"))
            self.assertTrue(uri_secret, "connection_uri must be a secret output")
            self.assertEqual(password, "reports-Db-Password-5")
            self.assertTrue(pw_secret, "a plain password input must come back secret")
            self.assertEqual(endpoint["port"], 5432)

        return pulumi.Output.all(
            settled(db.service_id),
            settled(db.cpu_millis),
            settled(db.connection_uri),
            settled(db.password),
            settled(db.endpoint),
        ).apply(check)


class ComponentAndFunctionTest(unittest.TestCase):
    @pulumi.runtime.test
    def test_production_database_is_the_plugins_component(self):
        prod = mdb.ProductionDatabase(
            "prod", region_code="us-east-1", cpu_millis=1000, memory_gbs=4, cidr="10.60.0.0/16"
        )

        def check(_):
            request = registrations["prod"]
            self.assertEqual(request.type, "mdb:index:ProductionDatabase")
            self.assertTrue(request.remote, "a component the plugin constructs")
            self.assertEqual(dict(request.object.fields)["cidr"].string_value, "10.60.0.0/16")

        return prod.urn.apply(check)

    @pulumi.runtime.test
    def test_get_service_invokes_the_plugins_function(self):
        found = mdb.get_service_output(service_id="svc-0a1b2c3d")

        def check(name):
            self.assertEqual(name, "orders-db")
            self.assertIn(("mdb:index:getService", {"serviceId": "svc-0a1b2c3d"}), invokes)

        return found.name.apply(check)

    @pulumi.runtime.test
    def test_get_service_reads_a_dedicated_size(self):
        """A size is one type in a function's result: Pulumi's Python generator checks each top-level
        field of a result with isinstance, which a union (a number or "shared") fails for any value."""
        found = mdb.get_service_output(service_id="svc-dedicated")

        def check(values):
            self.assertEqual(values, [1000, 4])

        return pulumi.Output.all(found.cpu_millis, found.memory_gbs).apply(check)

    @pulumi.runtime.test
    def test_get_service_reads_a_shared_size(self):
        """A service of shared size, as the plugin gives it in a function's result: "shared" reads 0."""
        found = mdb.get_service_output(service_id="svc-shared")

        def check(values):
            self.assertEqual(values, [0, 0])

        return pulumi.Output.all(found.cpu_millis, found.memory_gbs).apply(check)

    def test_config_reads_the_mdb_namespace(self):
        self.assertEqual(mdb.config.api_url, "http://127.0.0.1:8080/public/api/v1")


if __name__ == "__main__":
    unittest.main()
