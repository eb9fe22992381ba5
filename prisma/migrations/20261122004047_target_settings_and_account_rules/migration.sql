-- AlterTable
ALTER TABLE "social_account" ADD COLUMN     "rules" JSONB;

-- AlterTable
ALTER TABLE "post_target" ADD COLUMN     "processing_handle" TEXT,
ADD COLUMN     "settings" JSONB NOT NULL DEFAULT '{}';
