"""The plugin mdb from Python: a VPC, a service in it, a read replica set of the service, lookups
(the functions getVpc, getService and listServices, in their Output form) and a ProductionDatabase, the
component the plugin builds (Construct). The service's size comes from stack config, so a test can
change it.

getService is called on the service: Pulumi's Python generator checks each top-level field of a
function's result with isinstance, which a field of two types (a size: a number or "shared") fails
for every value, so the schema gives a function's sizes as numbers ("shared" reads 0).
"""

import pulumi
import pulumi_mdb as mdb

config = pulumi.Config()
region = "us-east-1"

network = mdb.Vpc("network", cidr="10.70.0.0/16", region_code=region)

db = mdb.Service(
    "db",
    service_type=mdb.ServiceType.POSTGRES,
    region_code=region,
    cpu_millis=config.get_int("cpuMillis") or 1000,
    memory_gbs=4,
    password=config.require_secret("dbPassword"),
    vpc_id=network.vpc_id,
)

reads = mdb.ReadReplicaSet("reads", service_id=db.service_id, nodes=1, cpu_millis=1000, memory_gbs=4)

# The VPC and the service as the API reports them, and every service of the project once both
# services exist.
found = mdb.get_vpc_output(vpc_id=network.vpc_id)
looked_up = mdb.get_service_output(
    service_id=db.service_id, opts=pulumi.InvokeOutputOptions(depends_on=[db])
)

prod = mdb.ProductionDatabase(
    "prod",
    region_code=region,
    cpu_millis=1000,
    memory_gbs=4,
    cidr="10.71.0.0/16",
    read_replica_sets=1,
    deletion_protection=False,
)

pulumi.export("vpcId", network.vpc_id)
pulumi.export("serviceId", db.service_id)
pulumi.export("serviceVpcId", db.vpc_id)
pulumi.export("connectionUri", db.connection_uri)
pulumi.export("replicaSetId", reads.replica_set_id)
pulumi.export("replicaStatus", reads.status)
pulumi.export("foundVpcName", found.name)
pulumi.export("foundVpcCidr", found.cidr)
pulumi.export("foundServiceSize", pulumi.Output.all(looked_up.cpu_millis, looked_up.memory_gbs))
pulumi.export("prodServiceId", prod.service_id)
pulumi.export("prodVpcId", prod.vpc_id)
pulumi.export("prodReplicaSetIds", prod.replica_set_ids)
pulumi.export("prodConnectionUri", prod.connection_uri)

services = mdb.list_services_output(opts=pulumi.InvokeOutputOptions(depends_on=[db, prod]))
pulumi.export(
    "listedServices",
    services.services.apply(lambda listed: sorted([s.service_id, s.cpu_millis] for s in listed)),
)
