-- AlterTable
ALTER TABLE "post_target" ADD COLUMN     "checkpoint" JSONB,
ADD COLUMN     "quota_charged" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "waiting_reason" TEXT,
ADD COLUMN     "waiting_until" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "network_quota_usage" (
    "network" TEXT NOT NULL,
    "quota" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "used" INTEGER NOT NULL,

    CONSTRAINT "network_quota_usage_pkey" PRIMARY KEY ("network","quota","scope","window_start")
);
