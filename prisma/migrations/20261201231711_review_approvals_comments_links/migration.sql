-- AlterTable
ALTER TABLE "workspace" ADD COLUMN     "approval_required" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "post" ADD COLUMN     "review_decided_at" TIMESTAMPTZ(3),
ADD COLUMN     "review_decided_by_id" UUID,
ADD COLUMN     "review_decided_by_name" TEXT,
ADD COLUMN     "review_requested_by_id" UUID,
ADD COLUMN     "review_state" TEXT;

-- CreateTable
CREATE TABLE "post_comment" (
    "id" UUID NOT NULL,
    "post_id" UUID NOT NULL,
    "author_id" UUID,
    "author_name" TEXT,
    "review_link_id" UUID,
    "kind" TEXT NOT NULL DEFAULT 'comment',
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "post_comment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_link" (
    "id" UUID NOT NULL,
    "post_id" UUID NOT NULL,
    "created_by_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_link_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "post_comment_post_id_created_at_id_idx" ON "post_comment"("post_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "review_link_token_hash_key" ON "review_link"("token_hash");

-- CreateIndex
CREATE INDEX "review_link_post_id_idx" ON "review_link"("post_id");

-- AddForeignKey
ALTER TABLE "post_comment" ADD CONSTRAINT "post_comment_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "post"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "post_comment" ADD CONSTRAINT "post_comment_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "app_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_link" ADD CONSTRAINT "review_link_post_id_fkey" FOREIGN KEY ("post_id") REFERENCES "post"("id") ON DELETE CASCADE ON UPDATE CASCADE;
