-- CreateTable
CREATE TABLE "inbox_item" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "connection_id" UUID NOT NULL,
    "target_id" UUID NOT NULL,
    "post_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "remote_id" TEXT NOT NULL,
    "remote_url" TEXT,
    "parent_remote_id" TEXT,
    "reference" JSONB NOT NULL DEFAULT '{}',
    "author_name" TEXT NOT NULL,
    "author_username" TEXT NOT NULL,
    "author_avatar_url" TEXT,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "collected_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" TEXT NOT NULL DEFAULT 'open',

    CONSTRAINT "inbox_item_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inbox_reply" (
    "id" UUID NOT NULL,
    "item_id" UUID NOT NULL,
    "user_id" UUID,
    "text" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "checkpoint" JSONB,
    "remote_id" TEXT,
    "remote_url" TEXT,
    "error_code" TEXT,
    "error_message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "inbox_reply_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inbox_poll" (
    "connection_id" UUID NOT NULL,
    "cursor" JSONB NOT NULL DEFAULT '{}',
    "polled_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "inbox_poll_pkey" PRIMARY KEY ("connection_id")
);

-- CreateIndex
CREATE INDEX "inbox_item_workspace_id_created_at_id_idx" ON "inbox_item"("workspace_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "inbox_item_target_id_idx" ON "inbox_item"("target_id");

-- CreateIndex
CREATE UNIQUE INDEX "inbox_item_connection_id_remote_id_key" ON "inbox_item"("connection_id", "remote_id");

-- CreateIndex
CREATE INDEX "inbox_reply_item_id_created_at_idx" ON "inbox_reply"("item_id", "created_at");

-- AddForeignKey
ALTER TABLE "inbox_item" ADD CONSTRAINT "inbox_item_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inbox_item" ADD CONSTRAINT "inbox_item_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "social_account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inbox_item" ADD CONSTRAINT "inbox_item_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "post_target"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inbox_reply" ADD CONSTRAINT "inbox_reply_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "inbox_item"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inbox_poll" ADD CONSTRAINT "inbox_poll_connection_id_fkey" FOREIGN KEY ("connection_id") REFERENCES "social_account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
