// The plugin mdb from Go, through the SDK sdkgen generates from the package schema (imported as
// example.com/pulumi-mdb/sdk/go/mdb, Pulumi's default for a schema that names no Go import path):
// a VPC, a service in it, a read replica set, lookups (getService, listServices) and a
// ProductionDatabase. test/e2e/go.test.ts runs it with the real Pulumi CLI and the Go language host
// scripts/ensure-pulumi builds (tools/langhosts), against the emulator.
package main

import (
	"example.com/pulumi-mdb/sdk/go/mdb"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		conf := config.New(ctx, "")
		region := pulumi.String("us-east-1")

		network, err := mdb.NewVpc(ctx, "network", &mdb.VpcArgs{Cidr: pulumi.String("10.90.0.0/16"), RegionCode: region})
		if err != nil {
			return err
		}
		// cpuMillis is a number or "shared": any Input.
		cpu := conf.GetInt("cpuMillis")
		if cpu == 0 {
			cpu = 1000
		}
		db, err := mdb.NewService(ctx, "db", &mdb.ServiceArgs{
			ServiceType: mdb.ServiceTypePOSTGRES,
			RegionCode:  region,
			CpuMillis:   pulumi.Int(cpu),
			MemoryGbs:   pulumi.Int(4),
			Password:    conf.RequireSecret("dbPassword"),
			VpcId:       network.VpcId,
		})
		if err != nil {
			return err
		}
		reads, err := mdb.NewReadReplicaSet(ctx, "reads", &mdb.ReadReplicaSetArgs{
			ServiceId: db.ServiceId, Nodes: pulumi.Int(1), CpuMillis: pulumi.Int(1000), MemoryGbs: pulumi.Int(4),
		})
		if err != nil {
			return err
		}
		found := mdb.LookupServiceOutput(ctx, mdb.LookupServiceOutputArgs{ServiceId: db.ServiceId})
		listed := mdb.ListServicesOutput(ctx, mdb.ListServicesOutputArgs{}, pulumi.DependsOn([]pulumi.Resource{db}))
		deletionProtection := false
		prod, err := mdb.NewProductionDatabase(ctx, "prod", &mdb.ProductionDatabaseArgs{
			RegionCode:         region,
			CpuMillis:          pulumi.Int(1000),
			MemoryGbs:          pulumi.Int(4),
			Cidr:               pulumi.String("10.91.0.0/16"),
			DeletionProtection: &deletionProtection,
		})
		if err != nil {
			return err
		}

		ctx.Export("vpcId", network.VpcId)
		ctx.Export("serviceId", db.ServiceId)
		ctx.Export("connectionUri", db.ConnectionUri)
		ctx.Export("replicaSetId", reads.ReplicaSetId)
		ctx.Export("foundStatus", found.Status())
		ctx.Export("foundCpuMillis", found.CpuMillis())
		ctx.Export("serviceCount", listed.Services().ApplyT(func(s []mdb.ServiceResult) int { return len(s) }))
		ctx.Export("prodServiceId", prod.ServiceId)
		ctx.Export("prodConnectionUri", prod.ConnectionUri)
		return nil
	})
}
