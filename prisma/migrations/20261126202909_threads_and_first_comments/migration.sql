-- AlterTable
ALTER TABLE "post" ADD COLUMN     "thread" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "post_target" ADD COLUMN     "first_comment" JSONB,
ADD COLUMN     "override_thread" JSONB,
ADD COLUMN     "parts" JSONB;
