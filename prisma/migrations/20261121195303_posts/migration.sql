-- CreateTable
CREATE TABLE "post" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "created_by_id" UUID NOT NULL,
    "caption" TEXT NOT NULL,
    "media_ids" UUID[],
    "campaign" TEXT,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "version" INTEGER NOT NULL DEFAULT 1,
    "scheduled_at" TIMESTAMPTZ(3),
    "timezone" TEXT,
    "queue_id" UUID,
    "publish_run_id" UUID,
    "published_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "post_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "post_target" (
    "id" UUID NOT NULL,
    "post_id" UUID NOT NULL,
    "connection_id" UUID NOT NULL,
    "placement" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "override_caption" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "remote_id" TEXT,
    "remote_url" TEXT,
    "error_code" TEXT,
    "error_message" TEXT,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "post_target_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_event" (
    "id" UUID NOT NULL,
    "sequence" BIGSERIAL NOT NULL,
    "workspace_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "post_workspace_id_created_at_id_idx" ON "post"("workspace_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "post_workspace_id_status_idx" ON "post"("workspace_id", "status");

-- CreateIndex
CREATE INDEX "post_target_connection_id_idx" ON "post_target"("connection_id");

-- CreateIndex
CREATE UNIQUE INDEX "post_target_post_id_connection_id_placement_key" ON "post_target"("post_id", "connection_id", "placement");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_event_sequence_key" ON "outbox_event"("sequence");

-- CreateIndex
CREATE INDEX "outbox_event_workspace_id_sequence_idx" ON "outbox_event"("workspace_id", "sequence");

-- AddForeignKey
ALTER TABLE "post" ADD CONSTRAINT "post_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_target" ADD CONSTRAINT "post_target_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "post"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_target" ADD CONSTRAINT "post_target_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "social_account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outbox_event" ADD CONSTRAINT "outbox_event_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;
