-- CreateTable
CREATE TABLE "feed" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "created_by_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "connection_ids" UUID[],
    "placement" TEXT,
    "mode" TEXT NOT NULL,
    "queue_id" UUID,
    "template" TEXT NOT NULL,
    "etag" TEXT,
    "last_modified" TEXT,
    "first_polled_at" TIMESTAMPTZ(3),
    "last_polled_at" TIMESTAMPTZ(3),
    "next_poll_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "error_code" TEXT,
    "error_message" TEXT,
    "error_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "feed_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "feed_item" (
    "id" UUID NOT NULL,
    "feed_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "link" TEXT,
    "position" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "post_id" UUID,
    "error_code" TEXT,
    "error_message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "feed_item_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "feed_workspace_id_created_at_id_idx" ON "feed"("workspace_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "feed_next_poll_at_idx" ON "feed"("next_poll_at");

-- CreateIndex
CREATE INDEX "feed_item_feed_id_status_created_at_position_idx" ON "feed_item"("feed_id", "status", "created_at", "position" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "feed_item_feed_id_key_key" ON "feed_item"("feed_id", "key");

-- AddForeignKey
ALTER TABLE "feed" ADD CONSTRAINT "feed_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "feed" ADD CONSTRAINT "feed_queue_id_fkey" FOREIGN KEY ("queue_id") REFERENCES "queue"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "feed_item" ADD CONSTRAINT "feed_item_feed_id_fkey" FOREIGN KEY ("feed_id") REFERENCES "feed"("id") ON DELETE CASCADE ON UPDATE CASCADE;
