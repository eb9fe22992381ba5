-- AlterTable
ALTER TABLE "workspace" ADD COLUMN     "link_defaults" JSONB;

-- CreateTable
CREATE TABLE "short_link" (
    "code" TEXT NOT NULL,
    "target_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "workspace_id" UUID NOT NULL,
    "post_id" UUID NOT NULL,
    "connection_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "short_link_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "link_click_day" (
    "target_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "workspace_id" UUID NOT NULL,
    "post_id" UUID NOT NULL,
    "connection_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "clicks" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "link_click_day_pkey" PRIMARY KEY ("target_id","day")
);

-- CreateIndex
CREATE INDEX "short_link_target_id_idx" ON "short_link"("target_id");

-- CreateIndex
CREATE INDEX "link_click_day_workspace_id_day_idx" ON "link_click_day"("workspace_id", "day");

-- AddForeignKey
ALTER TABLE "short_link" ADD CONSTRAINT "short_link_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "post_target"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "link_click_day" ADD CONSTRAINT "link_click_day_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "post_target"("id") ON DELETE CASCADE ON UPDATE CASCADE;
