-- AlterTable
ALTER TABLE "workspace" ADD COLUMN     "ai_credits_low_period" TIMESTAMPTZ(3),
ADD COLUMN     "ai_credits_period" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "media" ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'upload';

-- CreateTable
CREATE TABLE "ai_request" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "action" TEXT NOT NULL,
    "cost" INTEGER NOT NULL,
    "period" TIMESTAMPTZ(3) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'reserved',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "ai_request_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ai_request_workspace_id_status_idx" ON "ai_request"("workspace_id", "status");

-- AddForeignKey
ALTER TABLE "ai_request" ADD CONSTRAINT "ai_request_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
