-- AlterTable
ALTER TABLE "webhook_endpoint" ADD COLUMN     "drain_lease_holder" UUID;
