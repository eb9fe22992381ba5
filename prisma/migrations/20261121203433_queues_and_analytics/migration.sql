-- CreateTable
CREATE TABLE "queue" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "timezone" TEXT NOT NULL,
    "slots" JSONB NOT NULL,
    "connection_ids" UUID[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "queue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "target_metric_day" (
    "target_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "workspace_id" UUID NOT NULL,
    "post_id" UUID NOT NULL,
    "connection_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "impressions" INTEGER NOT NULL DEFAULT 0,
    "reach" INTEGER NOT NULL DEFAULT 0,
    "likes" INTEGER NOT NULL DEFAULT 0,
    "comments" INTEGER NOT NULL DEFAULT 0,
    "shares" INTEGER NOT NULL DEFAULT 0,
    "saves" INTEGER NOT NULL DEFAULT 0,
    "clicks" INTEGER NOT NULL DEFAULT 0,
    "video_views" INTEGER NOT NULL DEFAULT 0,
    "collected_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "target_metric_day_pkey" PRIMARY KEY ("target_id","day")
);

-- CreateIndex
CREATE INDEX "queue_workspace_id_created_at_id_idx" ON "queue"("workspace_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "target_metric_day_workspace_id_day_idx" ON "target_metric_day"("workspace_id", "day");

-- CreateIndex
CREATE INDEX "post_queue_id_scheduled_at_idx" ON "post"("queue_id", "scheduled_at");

-- AddForeignKey
ALTER TABLE "post" ADD CONSTRAINT "post_queue_id_fkey" FOREIGN KEY ("queue_id") REFERENCES "queue"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "queue" ADD CONSTRAINT "queue_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
