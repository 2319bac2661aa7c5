import { Field, ID, Int, ObjectType } from 'type-graphql';
import { NodeUserRef } from '../../kernel/user-ref';

@ObjectType({ simpleResolvers: true, description: 'An identity document of a verification (bytes in the object store; type by magic bytes).' })
export class KycDocument {
  @Field(() => ID) id: string;
  @Field({ description: 'passport, id_card, driving_licence, residence_permit, selfie or proof_of_address' }) kind: string;
  @Field({ description: 'image/jpeg, image/png or application/pdf (from the bytes)' }) contentType: string;
  @Field(() => Int) size: number;
  @Field({ description: 'Hex SHA-256 of the bytes' }) sha256: string;
  @Field() createdAt: Date;
}

@ObjectType({ simpleResolvers: true, description: "A user's identity verification at one level (one per user and level)." })
export class KycVerification {
  @Field(() => ID) id: string;
  @Field(() => ID) userId: string;
  @Field(() => NodeUserRef, { description: 'The user (their user name from identity)' }) user?: NodeUserRef;
  @Field({ description: 'The first name the user submitted for this verification' }) firstName: string;
  @Field({ description: 'The last name the user submitted for this verification' }) lastName: string;
  @Field({ description: 'basic or enhanced' }) level: string;
  @Field({ description: 'unverified, pending, in_review, verified, rejected, resubmission_required or expired' }) state: string;
  @Field({ description: 'The verification provider (sandbox, sumsub)' }) provider: string;
  @Field({ description: "The reviewer's reason (rejection, resubmission); empty otherwise" }) reason: string;
  @Field(() => Date, { nullable: true }) submittedAt: Date | null;
  @Field(() => Date, { nullable: true }) reviewedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When a verified level lapses' }) expiresAt: Date | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;
  @Field(() => [KycDocument]) documents: KycDocument[];
}

@ObjectType({ simpleResolvers: true, description: "The caller's verification status." })
export class KycStatus {
  @Field({
    description:
      "The user's level as the node holds it (written by every verification decision, or set by an administrator): the one every money module checks; none, basic or enhanced",
  })
  level: string;
  @Field({ description: 'What this node requires before money moves (its KYC toggles): none, basic or enhanced' }) requiredLevel: string;
  @Field(() => [KycVerification]) verifications: KycVerification[];
}

@ObjectType({ simpleResolvers: true })
export class KycWebhookReceipt {
  @Field() received: boolean;
  @Field({ description: 'False for a delivery seen before, an event deciding nothing, or a verification decided already' }) applied: boolean;
}

@ObjectType({ simpleResolvers: true, description: 'A document opened by an administrator (the view is audited): where its bytes are.' })
export class KycDocumentView {
  @Field(() => ID) id: string;
  @Field() kind: string;
  @Field() contentType: string;
  @Field(() => Int) size: number;
  @Field() sha256: string;
  @Field({ description: 'The object-store key of the bytes (served by the console, never linked publicly)' }) objectKey: string;
}
