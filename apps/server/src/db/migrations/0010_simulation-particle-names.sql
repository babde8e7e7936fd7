CREATE TABLE "simulation_particle_names" (
	"simulation_id" uuid NOT NULL,
	"object" text NOT NULL,
	"particle" integer NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "simulation_particle_names_simulation_id_object_particle_pk" PRIMARY KEY("simulation_id","object","particle")
);
--> statement-breakpoint
ALTER TABLE "simulation_particle_names" ADD CONSTRAINT "simulation_particle_names_simulation_id_simulations_id_fk" FOREIGN KEY ("simulation_id") REFERENCES "public"."simulations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "simulation_particle_names_name_uq" ON "simulation_particle_names" USING btree ("simulation_id",lower("name"));